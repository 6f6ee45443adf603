// A non-zero f32 fill before a matmul is the accumulator's start value, not
// "C = A*B": only a +0.0 fill may fold into the SA job as npu.zero_init
// (issue 14: folding 1.5 as zero passed every test). npuc compiles the
// network to the schedule; the 0.0 fill folds, the 1.5 fill stays.
// RUN: npuc %s --emit=schedule | FileCheck %s

// The 1.5 fill runs on the workers, then the matmul accumulates onto it
// (flags F32 | ACCUMULATE = 3); the 0.0 fill is gone and its matmul
// overwrites C (flags F32 = 1).
// CHECK-LABEL: func.func @npu_network_run
// CHECK: call @npurt_parallel
// CHECK-SAME: npu.split_dim
// CHECK-NEXT: call @npurt_region_end({{.*}}) {{{.*}}npu.region = "layer1.fill"}
// CHECK: call @npurt_matmul({{.*}}, %c3_i32, %c3072_i32, %c0_i32)
// CHECK-NOT: layer2.fill
// CHECK: call @npurt_matmul({{.*}}, %c1_i32, %c3072_i32, %c0_i32)
// CHECK: func.func private @npu_worker_
// CHECK: arith.constant 1.500000e+00 : f32
// CHECK: linalg.fill

func.func @fills(%input: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %onefive = arith.constant 1.5 : f32
  %w = arith.constant dense<[[-0.366, 0.347, 0.264, -0.245, -0.005, -0.051, 0.152, 0.289, -0.406, -0.472, 0.336, -0.067, 0.262, -0.498, -0.055, 0.222], [-0.271, 0.445, 0.401, -0.469, -0.475, 0.041, 0.439, -0.119, -0.283, -0.078, -0.471, -0.278, -0.062, -0.004, -0.267, -0.269], [-0.281, -0.040, -0.210, -0.479, 0.338, 0.056, 0.142, -0.314, 0.493, 0.360, -0.379, -0.167, 0.221, 0.211, 0.436, -0.078], [0.330, 0.170, -0.197, 0.088, 0.382, 0.346, 0.005, 0.089, -0.465, -0.257, 0.297, -0.086, -0.327, 0.049, 0.203, 0.174], [-0.125, -0.061, 0.008, 0.278, 0.021, -0.107, -0.010, -0.470, -0.457, 0.203, 0.483, 0.093, -0.106, -0.330, 0.002, 0.482], [0.271, 0.040, 0.360, -0.268, 0.014, 0.452, 0.078, -0.041, -0.231, 0.048, 0.457, -0.494, 0.284, 0.320, 0.386, 0.241], [0.309, 0.019, 0.061, -0.074, -0.444, 0.370, 0.070, -0.300, 0.005, -0.015, -0.143, -0.154, 0.038, 0.123, 0.112, -0.042], [-0.472, -0.270, -0.323, 0.084, 0.361, 0.298, 0.297, 0.316, -0.245, 0.342, 0.173, -0.417, -0.483, -0.485, 0.256, -0.250], [-0.391, 0.125, -0.156, -0.430, -0.340, 0.027, -0.332, -0.227, 0.212, -0.045, -0.178, -0.026, -0.476, -0.113, -0.079, -0.312], [-0.391, 0.400, 0.010, -0.291, 0.106, 0.317, -0.479, -0.482, -0.354, 0.219, -0.340, 0.205, 0.178, 0.045, -0.279, 0.476], [0.298, 0.017, -0.277, 0.149, -0.105, 0.076, -0.179, 0.131, -0.441, -0.201, 0.468, 0.376, -0.194, 0.359, -0.190, 0.439], [0.244, -0.084, -0.248, -0.492, 0.379, -0.462, 0.319, 0.462, 0.070, -0.328, 0.368, 0.474, 0.204, 0.009, -0.122, -0.153], [-0.294, 0.174, -0.067, -0.306, -0.396, 0.166, -0.204, -0.000, -0.175, 0.372, 0.400, -0.482, -0.299, -0.172, 0.487, 0.283], [-0.161, -0.287, 0.174, 0.338, 0.432, -0.156, 0.382, 0.187, -0.016, 0.486, -0.265, 0.225, -0.415, -0.330, 0.411, -0.287], [0.259, 0.100, 0.341, -0.132, -0.160, -0.209, 0.367, 0.104, 0.454, 0.387, -0.365, 0.051, -0.396, -0.461, -0.427, 0.366], [0.288, 0.329, -0.159, 0.115, 0.282, -0.122, 0.071, -0.276, -0.418, -0.233, 0.391, 0.064, 0.425, -0.042, -0.223, 0.287]]> : tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<4x16xf32>
  %f1 = linalg.fill ins(%onefive : f32) outs(%e1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m1 = linalg.matmul ins(%input, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m2 = linalg.matmul ins(%input, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m1, %m2 : tensor<4x16xf32>, tensor<4x16xf32>
}
