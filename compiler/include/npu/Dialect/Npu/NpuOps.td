#ifndef NPU_DIALECT_NPUOPS_TD
#define NPU_DIALECT_NPUOPS_TD

include "mlir/Interfaces/SideEffectInterfaces.td"
include "npu/Dialect/Npu/NpuDialect.td"

// Ops of the schedule stage (not produced by any pass yet): buffer-level
// work items for the cluster's DMA engine and systolic array. They are
// defined now so their syntax and verifiers are fixed and tested before the
// tiling/schedule passes target them.
class Npu_Op<string mnemonic, list<Trait> traits = []>
    : Op<Npu_Dialect, mnemonic, traits>;

def Npu_DmaCopyOp : Npu_Op<"dma_copy"> {
  let summary = "blocking DMA transfer of a whole buffer between levels";
  let description = [{
    Copies `source` into `target` with the cluster DMA (L3 <-> L2 <-> L1)
    and waits for completion. Both buffers have the same static shape and
    element type; strides (a tile inside a larger buffer) are allowed, they
    become the DMA's 2D descriptor.

    ```mlir
    npu.dma_copy %w_l3, %w_l2 : memref<16x32xi8>, memref<16x32xi8>
    ```
  }];
  let arguments = (ins
    Arg<AnyStaticShapeMemRef, "buffer read", [MemRead]>:$source,
    Arg<AnyStaticShapeMemRef, "buffer written", [MemWrite]>:$target
  );
  let assemblyFormat = [{
    $source `,` $target attr-dict `:` type($source) `,` type($target)
  }];
  let hasVerifier = 1;
}

def Npu_SaMatmulOp : Npu_Op<"sa_matmul"> {
  let summary = "one systolic-array job: acc += lhs x rhs on L1 buffers";
  let description = [{
    `acc[m][n] += sum_k lhs[m][k] * rhs[k][n]`, run by the systolic array
    (which masters L1 only). Element types are i8 x i8 -> i32 or
    f32 x f32 -> f32, as the SA supports.

    ```mlir
    npu.sa_matmul %a, %b, %c : memref<16x64xi8>, memref<64x16xi8>, memref<16x16xi32>
    ```
  }];
  let arguments = (ins
    Arg<AnyStaticShapeMemRef, "left operand (M x K)", [MemRead]>:$lhs,
    Arg<AnyStaticShapeMemRef, "right operand (K x N)", [MemRead]>:$rhs,
    Arg<AnyStaticShapeMemRef, "accumulator (M x N)", [MemRead, MemWrite]>:$acc
  );
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)
  }];
  let hasVerifier = 1;
}

#endif // NPU_DIALECT_NPUOPS_TD
