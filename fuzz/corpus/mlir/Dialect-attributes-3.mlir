func.func @bad_level() attributes {x = #npu.placement<L1, address = 0x0, size = 4>} {
  return
}
