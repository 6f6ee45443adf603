// npuc --input FILE.npy: the array must be the input's dtype and shape, in
// C order; a header npuc cannot read is named. (The shape was not read: a
// 16x4 array, the same bytes as the 4x16 input, was taken as it; a header
// length past the end or an unknown version said "holds 0 bytes".)
// The .npy files are written byte by byte (NPY 1.0), no numpy needed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import struct,sys; h=\"{'descr': '<f4', 'fortran_order': False, 'shape': (\" + sys.argv[2] + \"), }\"; h=h+' '*(118-len(h))+'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode()+bytes(4*32))" %t/ok.npy "4, 8"
// RUN: %python -c "import struct,sys; h=\"{'descr': '<f4', 'fortran_order': False, 'shape': (\" + sys.argv[2] + \"), }\"; h=h+' '*(118-len(h))+'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode()+bytes(4*32))" %t/t.npy "8, 4"
// RUN: %python -c "open('%t/v9.npy','wb').write(b'\x93NUMPY\x09\x00\x10\x00abc')"
// RUN: %python -c "open('%t/past.npy','wb').write(b'\x93NUMPY\x01\x00\xff\x00{}')"
// RUN: npuc %s --input %t/ok.npy -o %t/ok 2>&1 | FileCheck %s --check-prefix=OK
// RUN: not npuc %s --input %t/t.npy -o %t/t 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not npuc %s --input %t/v9.npy -o %t/v9 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: not npuc %s --input %t/past.npy -o %t/past 2>&1 | FileCheck %s --check-prefix=PAST

// OK: npuc: net -> {{.*}}firmware.elf
// SHAPE: error: --input {{.*}}t.npy: shape 8x4 is not the input's 4x8
// VERSION: error: --input {{.*}}v9.npy: .npy format version 9 (npuc reads 1, 2 and 3)
// PAST: error: --input {{.*}}past.npy: the .npy header (255 bytes) runs past the end of the file (12 bytes)

func.func @net(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.add ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
