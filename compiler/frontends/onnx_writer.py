"""A minimal protobuf writer for onnx.proto: enough to write test models
without the onnx Python package (fields as numbered in onnx/onnx.proto)."""
import struct

FLOAT, UINT8, INT8, INT32, INT64 = 1, 2, 3, 6, 7


def varint(n):
    n &= (1 << 64) - 1
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def fv(field, v):
    return varint(field << 3) + varint(v)


def fb(field, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(field << 3 | 2) + varint(len(data)) + data


def tensor(name, dims, dtype, values=None, raw=None, external=None):
    m = b"".join(fv(1, d) for d in dims) + fv(2, dtype) + fb(8, name)
    if values is not None:
        fmt = {FLOAT: "<f", INT64: "<q", INT8: "<b", UINT8: "<B", INT32: "<i"}[dtype]
        raw = b"".join(struct.pack(fmt, v) for v in values)
    if raw is not None:
        m += fb(9, raw)
    if external is not None:
        for k, v in external.items():
            m += fb(13, fb(1, k) + fb(2, v))
        m += fv(14, 1)
    return m


def value_info(name, dtype, dims):
    shape = b"".join(fb(1, fb(2, d) if isinstance(d, str) else fv(1, d)) for d in dims)
    return fb(1, name) + fb(2, fb(1, fv(1, dtype) + fb(2, shape)))


def attr_int(name, v):
    return fb(1, name) + fv(3, v) + fv(20, 2)


def attr_ints(name, vs):
    return fb(1, name) + b"".join(fv(8, v) for v in vs) + fv(20, 7)


def node(op, inputs, outputs, name, attrs=(), domain=None):
    m = b"".join(fb(1, i) for i in inputs) + b"".join(fb(2, o) for o in outputs) + fb(3, name) + fb(4, op)
    m += b"".join(fb(5, a) for a in attrs)
    if domain is not None:
        m += fb(7, domain)
    return m


def model(nodes, inits, inputs, outputs, opset=13, domain=""):
    g = b"".join(fb(1, n) for n in nodes) + fb(2, "g") + b"".join(fb(5, t) for t in inits)
    g += b"".join(fb(11, v) for v in inputs) + b"".join(fb(12, v) for v in outputs)
    return fv(1, 8) + fb(8, fb(1, domain) + fv(2, opset)) + fb(7, g)
