"""The SimpleMLP and the four MLPerf Tiny networks as torch.nn.Modules.

Topologies as in docs/mlperf-tiny.md and compiler/networks/gen_mlperf.py
(DS-CNN, ResNet-8, MobileNetV1-0.25, FC autoencoder; TensorFlow 'same' padding,
written as ZeroPad2d where it is asymmetric), NCHW as PyTorch has them. The
convolutions carry BatchNorm layers with seeded, non-trivial statistics, as a
trained model would (the exporter or npuc folds them into the weights).

Int8: `quantized(model, calibration_input)` returns the QDQ form of a model:
activations fake-quantized per tensor (symmetric int8, zero point 0, scale
max|x| / 127 from the calibration input), weights per output channel; each
layer quantizes its output once, after its bias, residual add and ReLU, the
int8 layer npurt_conv.h runs. torch.onnx.export writes it as
QuantizeLinear/DequantizeLinear around Conv/Gemm.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def same_pad(size, k, s):
    """TensorFlow 'same' padding: (lo, hi) with the odd pixel at the end."""
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


class ConvBN(nn.Module):
    """[ZeroPad2d] Conv2d + BatchNorm2d [+ ReLU]; 'same' or 'valid' padding."""

    def __init__(self, cin, cout, k, s, in_hw, relu=True, groups=1, pad="same"):
        super().__init__()
        kh, kw = k if isinstance(k, tuple) else (k, k)
        if pad == "same":
            pt, pb = same_pad(in_hw[0], kh, s)
            pl, pr = same_pad(in_hw[1], kw, s)
        else:
            pt = pb = pl = pr = 0
        sym = pt == pb and pl == pr
        self.pad = nn.Identity() if sym else nn.ZeroPad2d((pl, pr, pt, pb))
        self.conv = nn.Conv2d(cin, cout, (kh, kw), s, padding=(pt, pl) if sym else 0, groups=groups)
        self.bn = nn.BatchNorm2d(cout)
        self.relu = relu
        self.out_hw = ((in_hw[0] + pt + pb - kh) // s + 1, (in_hw[1] + pl + pr - kw) // s + 1)

    def forward(self, x, residual=None):
        y = self.bn(self.conv(self.pad(x)))
        if residual is not None:
            y = y + residual
        return F.relu(y) if self.relu else y


class SimpleMLP(nn.Module):
    input_shape = (1, 784)

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(784, 256), nn.Linear(256, 128), nn.Linear(128, 10)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


class DSCNN(nn.Module):
    input_shape = (1, 1, 49, 10)

    def __init__(self):
        super().__init__()
        self.conv1 = ConvBN(1, 64, (10, 4), 2, (49, 10))
        hw = self.conv1.out_hw
        layers = []
        for _ in range(4):
            layers += [ConvBN(64, 64, 3, 1, hw, groups=64), ConvBN(64, 64, 1, 1, hw)]
        self.blocks = nn.ModuleList(layers)
        self.pool = nn.AvgPool2d((24, 5))
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(64, 12)

    def forward(self, x):
        x = self.conv1(x)
        for layer in self.blocks:
            x = layer(x)
        return self.fc(self.flatten(self.pool(x)))


class ResNet8(nn.Module):
    input_shape = (1, 3, 32, 32)

    def __init__(self):
        super().__init__()
        self.conv1 = ConvBN(3, 16, 3, 1, (32, 32))
        self.s1_conv1 = ConvBN(16, 16, 3, 1, (32, 32))
        self.s1_conv2 = ConvBN(16, 16, 3, 1, (32, 32))
        self.s2_conv1 = ConvBN(16, 32, 3, 2, (32, 32))
        self.s2_short = ConvBN(16, 32, 1, 2, (32, 32), relu=False, pad="valid")
        self.s2_conv2 = ConvBN(32, 32, 3, 1, (16, 16))
        self.s3_conv1 = ConvBN(32, 64, 3, 2, (16, 16))
        self.s3_short = ConvBN(32, 64, 1, 2, (16, 16), relu=False, pad="valid")
        self.s3_conv2 = ConvBN(64, 64, 3, 1, (8, 8))
        self.pool = nn.AvgPool2d(8)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = self.s1_conv2(self.s1_conv1(x), residual=x)
        # The shortcut first: the main path's second conv adds it in its epilogue.
        sc = self.s2_short(x)
        x = self.s2_conv2(self.s2_conv1(x), residual=sc)
        sc = self.s3_short(x)
        x = self.s3_conv2(self.s3_conv1(x), residual=sc)
        return self.fc(self.flatten(self.pool(x)))


class MobileNetV1(nn.Module):
    """MobileNetV1 with width multiplier 0.25 on 96x96x3 (MLPerf Tiny VWW)."""
    input_shape = (1, 3, 96, 96)

    def __init__(self):
        super().__init__()
        self.conv1 = ConvBN(3, 8, 3, 2, (96, 96))
        hw, c = self.conv1.out_hw, 8
        layers = []
        for cout, s in [(16, 1), (32, 2), (32, 1), (64, 2), (64, 1), (128, 2)] + [(128, 1)] * 5 + [(256, 2), (256, 1)]:
            dw = ConvBN(c, c, 3, s, hw, groups=c)
            hw = dw.out_hw
            layers += [dw, ConvBN(c, cout, 1, 1, hw)]
            c = cout
        self.blocks = nn.ModuleList(layers)
        self.pool = nn.AvgPool2d(3)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(256, 2)

    def forward(self, x):
        x = self.conv1(x)
        for layer in self.blocks:
            x = layer(x)
        return self.fc(self.flatten(self.pool(x)))


class AutoEncoder(nn.Module):
    input_shape = (1, 640)

    def __init__(self):
        super().__init__()
        sizes = [640] + [128] * 4 + [8] + [128] * 4 + [640]
        self.fcs = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))

    def forward(self, x):
        for i, fc in enumerate(self.fcs):
            x = fc(x)
            if i + 1 < len(self.fcs):
                x = F.relu(x)
        return x


MODELS = {"simple_mlp": SimpleMLP, "dscnn": DSCNN, "resnet8": ResNet8, "mobilenet": MobileNetV1,
          "autoencoder": AutoEncoder}


def build(name, seed=2024):
    """The model in eval mode with seeded weights and BatchNorm statistics."""
    torch.manual_seed(seed)
    model = MODELS[name]()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            with torch.no_grad():
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
    return model.eval()


def example_input(model, seed=7):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(model.input_shape, generator=g)


# --- int8 QDQ ----------------------------------------------------------------------------


def fq(x, scale):
    if scale is None:  # calibration: f32 pass-through
        return x
    return torch.fake_quantize_per_tensor_affine(x, scale, 0, -128, 127)


def weight_scale(w):
    """Per output channel, symmetric: scale max|w| / 127."""
    return (w.detach().abs().reshape(w.shape[0], -1).max(dim=1).values.clamp(min=1e-12) / 127.0).float()


def fq_weight(w, scale):
    return torch.fake_quantize_per_channel_affine(w, scale, torch.zeros(w.shape[0], dtype=torch.int32), 0, -128, 127)


class QConv(nn.Module):
    """A ConvBN with BN folded, int8 weights, output quantized after bias, residual, ReLU."""

    def __init__(self, cb):
        super().__init__()
        conv, bn = cb.conv, cb.bn
        k = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        self.weight = nn.Parameter((conv.weight * k.reshape(-1, 1, 1, 1)).detach())
        self.bias = nn.Parameter(((conv.bias - bn.running_mean) * k + bn.bias).detach())
        self.register_buffer("w_scale", weight_scale(self.weight))
        self.pad, self.stride, self.padding, self.groups = cb.pad, conv.stride, conv.padding, conv.groups
        self.relu = cb.relu
        self.out_scale = None

    def forward(self, x, residual=None):
        y = F.conv2d(self.pad(x), fq_weight(self.weight, self.w_scale), self.bias, self.stride, self.padding, 1, self.groups)
        if residual is not None:
            y = y + residual
        if self.relu:
            y = F.relu(y)
        self.observed = y
        return fq(y, self.out_scale)


class QLinear(nn.Module):
    def __init__(self, fc):
        super().__init__()
        self.weight, self.bias = fc.weight, fc.bias
        self.register_buffer("w_scale", weight_scale(self.weight))
        self.out_scale = None

    def forward(self, x):
        y = F.linear(x, fq_weight(self.weight, self.w_scale), self.bias)
        self.observed = y
        return fq(y, self.out_scale)


class QuantizedNet(nn.Module):
    """The QDQ form of DSCNN or ResNet8 (scales set by `calibrate`)."""

    def __init__(self, model):
        super().__init__()
        self.kind = type(model).__name__
        self.input_shape = model.input_shape
        self.in_scale = None
        self.q = nn.ModuleDict()
        for name, m in model.named_modules():
            if isinstance(m, ConvBN):
                self.q[name.replace(".", "_")] = QConv(m)
        self.q["fc"] = QLinear(model.fc)
        self.pool = model.pool

    def pooled(self, x):
        # Average pooling keeps its input's scale (requantised by 1 / window).
        return fq(self.pool(x), self.pool_scale)

    def forward(self, x):
        q = self.q
        x = fq(x, self.in_scale)
        if self.kind == "DSCNN":
            x = q["conv1"](x)
            for i in range(8):
                x = q[f"blocks_{i}"](x)
        else:
            x = q["conv1"](x)
            x = q["s1_conv2"](q["s1_conv1"](x), residual=x)
            sc = q["s2_short"](x)
            x = q["s2_conv2"](q["s2_conv1"](x), residual=sc)
            sc = q["s3_short"](x)
            x = q["s3_conv2"](q["s3_conv1"](x), residual=sc)
        self.pool_scale = self.last_scale(x)
        return q["fc"](torch.flatten(self.pooled(x), 1))

    def last_scale(self, x):
        return self.q["blocks_7" if self.kind == "DSCNN" else "s3_conv2"].out_scale


def quantized(name, seed=2024, calibration=None):
    """The int8 QDQ model of `name` (dscnn or resnet8), calibrated on `calibration`."""
    net = QuantizedNet(build(name, seed)).eval()
    x = example_input(net) if calibration is None else calibration
    # Scales from the f32 forward pass (max |x| / 127 per tensor), as gen_mlperf.py calibrates.
    net.in_scale = None
    for layer in net.q.values():
        layer.out_scale = None
    with torch.no_grad():
        net(x)  # f32, observing every layer's output
    net.in_scale = float(x.abs().max()) / 127.0
    for layer in net.q.values():
        layer.out_scale = max(float(layer.observed.abs().max()), 1e-6) / 127.0
    return net
