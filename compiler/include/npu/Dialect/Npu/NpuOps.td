#ifndef NPU_DIALECT_NPUOPS_TD
#define NPU_DIALECT_NPUOPS_TD

include "npu/Dialect/Npu/NpuDialect.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"

// One layer of a convolutional network as the runtime runs it: a convolution
// (or depthwise convolution, or average pooling) with its zero padding and
// its elementwise epilogue (bias, requantisation, residual add, ReLU) fused,
// so the int32/f32 accumulator never goes to L2. npu-fuse-conv builds it
// from the linalg ops of the input; npu-schedule lowers it to one
// npurt_conv2d / npurt_dwconv2d / npurt_pool2d call (compiler/runtime/npurt_conv.h,
// whose argument block the attributes fill).
def Npu_ConvKernelOp : Op<Npu_Dialect, "conv_kernel",
    [AttrSizedOperandSegments, DestinationStyleOpInterface]> {
  let summary = "a conv / depthwise / pooling layer with its epilogue (one runtime call)";
  let arguments = (ins
    AnyShaped:$input,                 // NHWC, unpadded
    Optional<AnyShaped>:$weights,     // HWCF (conv2d), HWC (dwconv2d)
    Optional<AnyShaped>:$bias,        // [c] i32 / f32
    Optional<AnyShaped>:$mult,        // [c] i32 per-channel multipliers (int8)
    Optional<AnyShaped>:$shift,       // [c] i32 per-channel shifts (int8)
    Optional<AnyShaped>:$residual,    // NHWC like the output, added in the epilogue
    AnyShaped:$init,                  // the output's buffer
    StrAttr:$kernel,                  // "conv2d", "dwconv2d", "avgpool2d"
    DenseI64ArrayAttr:$window,        // [kh, kw]
    DenseI64ArrayAttr:$strides,       // [sh, sw]
    DenseI64ArrayAttr:$dilations,     // [dh, dw]
    DenseI64ArrayAttr:$padding,       // [top, left, bottom, right], zeros
    DefaultValuedAttr<I64Attr, "-128">:$act_min,
    DefaultValuedAttr<I64Attr, "127">:$act_max,
    DefaultValuedAttr<I64Attr, "0">:$res_mult,
    DefaultValuedAttr<I64Attr, "0">:$res_shift,
    DefaultValuedAttr<I64Attr, "0">:$pool_mult,   // int8 average: rq of the sum
    DefaultValuedAttr<I64Attr, "0">:$pool_shift,
    DefaultValuedAttr<F32Attr, "1.0">:$divisor,   // f32 average
    UnitAttr:$relu                    // f32: max(., 0)
  );
  let results = (outs Variadic<AnyRankedTensor>:$result);
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getInitMutable(); }
  }];
}

// A dense layer as the runtime runs it: C = A * B on the systolic array with
// its elementwise epilogue (bias, int8 requantisation and clamp, f32 ReLU)
// applied to each C tile in L1, so the int32/f32 accumulator never goes to
// L2. npu-fuse-matmul builds it from a linalg.matmul and the linalg.generic
// that consumes its result; npu-schedule lowers it to one npurt_matmul_ep
// call (compiler/runtime/npurt.h), with the tiles npu-tile chose. B (the
// weights) may stay in L3 like a linalg.matmul's: the kernel stages it.
def Npu_MatmulKernelOp : Op<Npu_Dialect, "matmul_kernel",
    [AttrSizedOperandSegments, DestinationStyleOpInterface]> {
  let summary = "a dense layer: matmul on the SA with its epilogue (one runtime call)";
  let arguments = (ins
    AnyShaped:$a,                     // [m, k] i8 / f32
    AnyShaped:$b,                     // [k, n] i8 / f32
    Optional<AnyShaped>:$bias,        // [n] i32 / f32
    Optional<AnyShaped>:$mult,        // int8: [n] or [1] i32 multipliers
    Optional<AnyShaped>:$shift,       // int8: [n] or [1] i32 shifts
    AnyShaped:$init,                  // [m, n] i8 / f32: the output's buffer
    DefaultValuedAttr<I64Attr, "-128">:$act_min,
    DefaultValuedAttr<I64Attr, "127">:$act_max,
    UnitAttr:$relu                    // f32: max(., 0)
  );
  let results = (outs Variadic<AnyRankedTensor>:$result);
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getInitMutable(); }
  }];
}

#endif // NPU_DIALECT_NPUOPS_TD
