func.func @string_level() -> tensor<4xi32> {
  %w = arith.constant {npu.mem = "L3"} dense<1> : tensor<4xi32>
  return %w : tensor<4xi32>
}
