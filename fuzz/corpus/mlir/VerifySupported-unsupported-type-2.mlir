func.func @dynamic(%a: tensor<?x8xi8>) {
  return
}
