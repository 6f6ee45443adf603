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

#endif // NPU_DIALECT_NPUOPS_TD
