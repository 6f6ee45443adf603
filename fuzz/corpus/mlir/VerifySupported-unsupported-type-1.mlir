func.func @f64_input(%a: tensor<2x8xf64>) {
  return
}
