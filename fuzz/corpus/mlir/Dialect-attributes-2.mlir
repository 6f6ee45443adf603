func.func @misspelt() -> tensor<4xi32> {
  %w = arith.constant {npu.memory = #npu.mem<L3>} dense<1> : tensor<4xi32>
  return %w : tensor<4xi32>
}
