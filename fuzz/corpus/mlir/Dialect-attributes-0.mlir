func.func @roundtrip() -> tensor<4xi32> {
  %w = arith.constant {npu.mem = #npu.mem<L3>, npu.placement = #npu.placement<L3, address = 0x80000040, size = 16>} dense<1> : tensor<4xi32>
  return %w : tensor<4xi32>
}
