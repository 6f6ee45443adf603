#ifndef NPU_TRANSFORMS_PASSES_TD
#define NPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NpuLegalizeLinalg : Pass<"npu-legalize-linalg", "ModuleOp"> {
  let summary = "Rewrite linalg ops without an engine of their own into compiled forms";
  let description = [{
    Runs first, before the network is checked (npu-verify-supported) and
    before the golden's copy is taken, so host and device run the same ops.
    `dense_resource` constants become `dense`; `linalg.matmul_transpose_a/_b`
    become a transpose (folded when the operand is a constant) and
    `linalg.matmul`; `linalg.conv_2d_nchw_fchw` becomes
    `linalg.conv_2d_nhwc_hwcf` between transposes (constant weights permuted
    at compile time, a zero `tensor.pad` moved to NHWC, an elementwise
    epilogue re-indexed into NHWC so npu-fuse-conv folds it);
    `linalg.softmax` (f32) becomes max / exp(x - max) / sum / divide
    generics; transposes, broadcasts, `linalg.reduce`/`map`, the named
    elementwise ops, `linalg.batch_matmul` and max/min pooling become
    `linalg.generic` (run by the workers), without the operands their
    bodies do not read.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def NpuVerifySupported : Pass<"npu-verify-supported", "ModuleOp"> {
  let summary = "Reject every op and type npuc cannot compile";
  let description = [{
    Stage 1 of the pipeline. Accepts one or more `func.func` bodies made of
    `linalg.matmul` (i8 x i8 -> i32 or f32), elementwise `linalg.generic`
    (all loops parallel, projected-permutation maps: bias add, ReLU/clamp,
    int8 requantization) over `arith` ops, `linalg.fill`, `tensor.empty`
    and `arith.constant` (weights, scalars). Tensors must be statically
    shaped with element type i8, i32 or f32. Every violation is reported at
    the offending op's location; the pass then fails. It never asserts on
    bad input.
  }];
}

def NpuDeriveTraining : Pass<"npu-derive-training", "ModuleOp"> {
  let summary = "Turn an f32 forward network into N unrolled SGD training steps";
  let description = [{
    Runs before everything else (npuc --train). The network is either a
    chain of fully connected layers: `linalg.matmul` of the previous
    activation with a constant f32 weight, then one elementwise
    `linalg.generic` adding a constant bias with an optional ReLU, the
    function returning the last layer's output; or a convolutional network
    of batch 1 (conv / depthwise conv / sum pooling with zero padding,
    bias + residual + ReLU epilogues, the average's divide, reshapes, fully
    connected layers) returning the logits, whose backward pass is the
    transposed convolutions (dX), im2col GEMMs fused with the SGD update
    (dW) and the reverse of every epilogue. The pass replaces the function by one that runs `steps`
    training steps on mini-batches of `batch` rows, each: the forward pass
    keeping every activation the backward reads, the loss (softmax
    cross-entropy against i32 labels, a second data input per step; or,
    when the output has the input's width, the mean squared error against
    the input: an autoencoder), the backward pass (dX = dY W^T as a matmul
    on the SA, the ReLU mask and the transposes on the workers) and the SGD
    update fused into the weight-gradient GEMM: W += (-lr X^T) dY and
    b += (-lr 1^T) dY, matmuls accumulating into the weights' own buffers
    (`npu.sgd_update`), so no gradient is stored. Results: each step's
    loss (tensor<1x1xf32>), then every weight and bias after the last step.
    An op or form without a backward rule, an integer network or an output
    that is not a supported loss shape is an error at the op.
  }];
  let dependentDialects = ["::mlir::npu::NpuDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"steps", "steps", "int64_t", /*default=*/"4",
           "training steps (mini-batches), 1..64">,
    Option<"batch", "batch", "int64_t", /*default=*/"0",
           "rows per mini-batch, 1..256 (default: 4 for a dense network, "
           "1 for a convolutional one, whose kernels run batch 1)">,
    Option<"lr", "lr", "double", /*default=*/"0.01",
           "SGD learning rate, (0, 10]">,
  ];
}

def NpuFuseConv : Pass<"npu-fuse-conv", "ModuleOp"> {
  let summary = "Fuse each conv / depthwise / pooling layer into one npu.conv_kernel";
  let description = [{
    On tensors, before the memory plan. A `linalg.conv_2d_nhwc_hwcf`,
    `linalg.depthwise_conv_2d_nhwc_hwc` or `linalg.pooling_nhwc_sum`
    accumulating into a zero `linalg.fill`, whose input may be a zero
    `tensor.pad`, and whose result feeds exactly one elementwise
    `linalg.generic` epilogue of the generator's form (int8: bias add, i64
    requantisation multiply/round/shift, optional rescaled residual add,
    clamp; f32: bias add, optional residual add, optional ReLU; average
    pooling: the requantisation or a division by a constant) becomes one
    `npu.conv_kernel` writing the epilogue's output: the padding folds into
    the kernel's padding, the epilogue into its parameters (per-channel
    multipliers and shifts narrowed to i32 constants). Anything else is an
    error at the op saying what did not match.
  }];
  let dependentDialects = ["::mlir::npu::NpuDialect", "::mlir::arith::ArithDialect"];
}

def NpuFuseMatmul : Pass<"npu-fuse-matmul", "ModuleOp"> {
  let summary = "Fuse each dense layer's epilogue into its matmul (npu.matmul_kernel)";
  let description = [{
    On tensors, before the memory plan. A `linalg.matmul` accumulating into
    a zero `linalg.fill` of its own, whose result feeds exactly one
    elementwise `linalg.generic` epilogue (as its first input) becomes one
    `npu.matmul_kernel` writing the epilogue's output, when the epilogue is
    one the runtime computes exactly: f32 `acc + bias`, optionally followed
    by `maximumf(., 0)`; int8 `acc + bias` then either the requantisation of
    npurt_conv.h with per-channel i64 multiplier and shift vectors
    (gen_mlperf.py's form) or, with constants, optional `maxsi(., 0)`,
    `extsi`, `muli m`, `addi (1 << s) >> 1`, `shrsi s`, clamp to -128..127
    (gen_mlp.py's form; 0 <= m < 2^31, 31 <= s <= 62, where it is the same
    value). The accumulator then never leaves L1 and no buffer is planned
    for it. Any other epilogue, a result that is not i8 (int8) or f32, or
    an accumulator with other readers, is left as it is (a matmul, then
    the generic on the workers).
  }];
  let dependentDialects = ["::mlir::npu::NpuDialect", "::mlir::arith::ArithDialect"];
}

def NpuMemoryPlan : Pass<"npu-memory-plan", "ModuleOp"> {
  let summary = "Place every weight and activation in L2 or L3";
  let description = [{
    Stage 2 of the pipeline. Reads the platform (`npu.target`, from
    -npu-attach-target), treats every tensor
    buffer (function argument, weight constant, `tensor.empty` root; a DPS
    result shares its init's buffer) as an interval [first def, last use],
    and packs the buffers of each level by greedy first-fit (largest
    first) so buffers with disjoint lifetimes may share bytes. Weights are
    live for the whole function. Every tensor-producing op gets
    `npu.placement = #npu.placement<level, address = ..., size = ...>`,
    function arguments get it as an argument attribute, and the module gets
    `npu.memory_usage`. If a level overflows, the error says by how many
    bytes.

    Weights default to `default-mem-level`, everything else to
    `activation-mem-level`. The cores and the SA compute on L2: an op whose
    result is planned in L3 computes into L2 and a staging copy
    (`linalg.copy {npu.staging}`) right after it moves the result to L3; a
    reader of an L3 tensor gets a staging copy into L2 right before it,
    except the B operand of `linalg.matmul` (the SA schedule stages its
    panels itself) and the function's return. Staging buffers are planned
    like any activation.
  }];
  // The plan is written as #npu.placement attributes; staging copies are
  // linalg.copy into a tensor.empty.
  let dependentDialects = ["::mlir::npu::NpuDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"defaultMemLevel", "default-mem-level", "std::string",
           /*default=*/"\"L2\"",
           "Level of weights without an npu.mem override: L2 or L3">,
    Option<"activationMemLevel", "activation-mem-level", "std::string",
           /*default=*/"\"L2\"",
           "Level of inputs, activations and outputs without an npu.mem "
           "override: L2 or L3">,
    Option<"l2FromTop", "l2-from-top", "bool", /*default=*/"false",
           "Put the L2 plan at the top of L2 (npuc: the firmware image and "
           "heap take the bottom)">,
    Option<"alignment", "alignment", "uint64_t", /*default=*/"64",
           "Byte alignment of every buffer (a power of two)">,
    Option<"l2Reserve", "l2-reserve", "uint64_t", /*default=*/"0",
           "Bytes at the start of L2 kept free for the firmware image">
  ];
}

def NpuPrintMemoryPlan : Pass<"npu-print-memory-plan", "ModuleOp"> {
  let summary = "Print the memory plan as a table (stdout)";
  let description = [{
    Reads the `npu.placement` attributes left by -npu-memory-plan and prints
    one row per planned tensor: level, address, bytes, kind (input, weight,
    activation, output), type and the op and location that produce it,
    sorted by level and address, then each level's peak. tensor.empty rows
    are left out: their buffer is listed under the op that writes it. The
    IR is not changed. A function without a plan is an error.
  }];
}

def NpuMaterializePlan : Pass<"npu-materialize-plan", "ModuleOp"> {
  let summary = "Bind every planned tensor to its planned address";
  let description = [{
    Stage 3 of the pipeline, on tensors, after -npu-memory-plan. Every
    planned buffer becomes an external `memref.global` declaration
    (`@npu_buf_<i>`, carrying its `npu.placement`) that the linker defines
    at the planned address (npuc: `--defsym`), entered into the tensor world
    with `bufferization.to_tensor restrict` (`writable` for activations), so
    one-shot bufferization writes every result in place at its planned
    address and allocates nothing. A weight constant becomes a public
    `memref.global` (`npu.section`, `npu.placement`) that the
    linker places at its planned address and npusim loads there. The
    network function becomes `@npu_network_run() -> ()`: its arguments and
    results are recorded as `npu.inputs` / `npu.outputs` placements on the
    module, and the original name as `npu.network`. A DPS op whose result
    was planned apart from its init first copies the init there. An op
    other than a staging copy whose result is planned in L3 is rejected at
    its location: the cores and the SA compute on L2/L1 (npu-memory-plan
    never produces one).
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def NpuTile : Pass<"npu-tile", "ModuleOp"> {
  let summary = "Choose SA tiles from the L1 budget and the worker split";
  let description = [{
    Stage 4 of the pipeline, on bufferized IR. Reads the platform
    (`npu.target`: L1 size, hart count and stack size, SA rows x cols).
    Each `linalg.matmul` (i8 x i8 -> i32 or f32) gets
    `npu.tiles = array<i64: tm, tn, tk>`: tk a multiple of the SA rows (or
    K), tn a multiple of the SA columns (or N), tm up to M, such that the
    double-buffered working set 2*(tm*tk*ea + tk*tn*eb + tm*tn*4) fits the
    L1 budget (L1 minus the hart stacks minus `l1-reserve`); the largest
    tile volume wins, then the larger tk, then tn. It also records
    `npu.l1_bytes`, `npu.l1_budget` and `npu.sa`. A budget that cannot hold
    the smallest tile is an error naming both sizes. Every other elementwise
    linalg op (not a staging copy) gets `npu.split_dim`, its largest
    parallel loop, which the workers split.
  }];
  let options = [
    Option<"l1Reserve", "l1-reserve", "uint64_t", /*default=*/"1024",
           "L1 bytes kept for the runtime's own L1 data and allocator headers">,
    ListOption<"pins", "tile", "std::string",
               "<region>=<sizes>: the tiles of the layer whose region (as "
               "the report names it) is <region>: a conv layer's "
               "<output rows>x<output channels>, a matmul's <tm>x<tn>x<tk>">
  ];
}

def NpuSchedule : Pass<"npu-schedule", "ModuleOp"> {
  let summary = "Run the tiled matmuls on the SA and elementwise work on the workers";
  let description = [{
    Stage 5 of the pipeline, on bufferized IR whose buffers are planned
    globals, after -npu-tile.

    * `linalg.matmul` becomes a call to the runtime kernel `npurt_matmul`
      with the tiles of -npu-tile; the kernel runs the schedule: DMA L2->L1
      per tile, double buffering, SA jobs, and L3->L2 panel staging through
      `@npu_l2_stage` (planned here below the memory plan) when B is in L3.
      A zero `linalg.fill` of the accumulator before it (past staging copies
      into other buffers) is folded into the first SA job.
    * every other elementwise linalg op (`linalg.generic`, `linalg.fill`)
      is outlined into `@npu_worker_<i>()`, which takes its slice of loop
      `npu.split_dim` from `npurt_worker_id()`, and is run on all workers by
      `npurt_parallel`.
    * `linalg.copy` with an end in L3 (staging) becomes a DMA `npurt_copy`.
    * each step is bracketed by `npurt_region_begin/end("layer<i>.<what>")`
      so npusim reports its cycles; the end of a checkpointed op's region
      carries its `npu.checkpoint`.

    `inject-fault` rewrites the schedule into a known-wrong one, for tests
    and teaching: `l3-as-l2` DMAs an L3 weight straight to L1 as if it were
    in L2; `unchecked-l1-alloc` asks for more L1 than exists and uses the
    NULL result unchecked (in a training step: in the first backward GEMM);
    `data-input-count` (a training step with L3 weights) shifts the
    optimizer's copy-out by one slot, as if a step had one data input.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"injectFault", "inject-fault", "std::string", /*default=*/"\"\"",
           "'', 'l3-as-l2', 'unchecked-l1-alloc' or 'data-input-count' "
           "(teaching/test aid)">
  ];
}

#endif // NPU_TRANSFORMS_PASSES_TD
