// The ONNX importer (npu/Frontend/OnnxImport.h).
//
// One pass over the graph's nodes in their (topological) order, building the
// network function as gen_mlperf.py writes networks by hand:
//  - activations are NHWC inside: a 4-D tensor keeps its ONNX (NCHW) shape as
//    its logical shape and its value is the NHWC permutation; convolution
//    weights are permuted at import, a graph input is transposed once, and a
//    Flatten/Reshape after a convolution collapses the NHWC value and the
//    next Gemm/MatMul's weight rows are permuted instead of the activations;
//  - a Conv/Gemm/MatMul takes the nodes after it that its epilogue generic
//    can do (bias Add, residual Add, Relu; in int8 the QuantizeLinear that
//    sets the output scale), so it becomes one conv/matmul + one epilogue,
//    the pattern npu-fuse-conv folds into one kernel call;
//  - BatchNormalization after a Conv/Gemm is folded into its weights;
//  - QDQ int8: DequantizeLinear(int8, scale, zero point 0) makes a tensor an
//    int8 value with a scale; Conv/Gemm/MatMul/pools on such tensors run in
//    int8 with npurt_conv.h's requantisation (multiplier, shift per output
//    channel). The graph input's QuantizeLinear and the output's
//    DequantizeLinear are the function's i8 interface (docs/frontend.md).
#include "npu/Frontend/OnnxImport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>

using namespace mlir;
using namespace mlir::npu;

namespace {

constexpr int64_t kMinOpset = 13, kMaxOpset = 17;

// Notes on constants for npu train (npu-derive-training reads them, see
// DeriveTraining.cpp): the zero bias that stands in for a layer without one
// (Linear(bias=False)), which training must leave zero as PyTorch does; and
// a weight of an initializer that several nodes read, which becomes one
// constant per node, so training would update the copies apart.
constexpr char kNoBiasAttr[] = "onnx.no_bias";
constexpr char kSharedAttr[] = "onnx.shared";

using onnx::TensorProto;

std::string typeName(int32_t t) {
  switch (t) {
  case TensorProto::FLOAT:
    return "float";
  case TensorProto::UINT8:
    return "uint8";
  case TensorProto::INT8:
    return "int8";
  case TensorProto::UINT16:
    return "uint16";
  case TensorProto::INT16:
    return "int16";
  case TensorProto::INT32:
    return "int32";
  case TensorProto::UINT32:
    return "uint32";
  case TensorProto::INT64:
    return "int64";
  case TensorProto::UINT64:
    return "uint64";
  case TensorProto::DOUBLE:
    return "double";
  case TensorProto::FLOAT16:
    return "float16";
  case TensorProto::BFLOAT16:
    return "bfloat16";
  case TensorProto::BOOL:
    return "bool";
  case TensorProto::STRING:
    return "string";
  case TensorProto::COMPLEX64:
    return "complex64";
  case TensorProto::COMPLEX128:
    return "complex128";
  case TensorProto::UNDEFINED:
    return "undefined (0)";
  default:
    // Named by its number: "an unsupported element type" did not say
    // which.
    return "unknown (" + std::to_string(t) + ")";
  }
}

int64_t product(ArrayRef<int64_t> shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

// Constants and tensors npuc holds at import: at most 2^28 elements (a 1 GiB
// f32 tensor), so no size computation overflows.
constexpr int64_t kMaxElements = int64_t{1} << 28;

// Constants are held as double (Const below); converting one back to an
// integer type saturates, and NaN becomes 0. A plain cast of a value out of
// the target's range is undefined behaviour, and exporters do write such
// values on purpose: a Slice's "to the end" is INT64_MAX, which as a double
// is 2^63 (found by fuzz_onnx).
template <typename T> T saturating(double d) {
  if (std::isnan(d))
    return 0;
  // Compare against the bounds as doubles: max() rounds up to 2^63 for
  // int64_t, so ">=" keeps exactly the values that do not fit.
  if (d >= double(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  if (d <= double(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  return static_cast<T>(d);
}

bool shapeFits(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d > 0 && n > kMaxElements / d))
      return false;
    n *= d;
  }
  return true;
}

// A constant (initializer, Constant node, or folded from them). Integers
// and floats are held as double: exact for every value a weight, bias,
// shape or zero point holds.
struct Const {
  SmallVector<int64_t> shape;
  std::vector<double> data;
  int32_t type = TensorProto::FLOAT;
  // Quantised weights (QuantizeLinear of a constant, or the int8 operand of
  // a DequantizeLinear): `data` are the integers, the real value is
  // data * scale[channel along `axis`] (one scale: per tensor).
  bool quantized = false;
  std::vector<double> scale;
  int64_t axis = 0;

  int64_t numel() const { return product(shape); }
  double scaleAt(int64_t flat) const {
    if (scale.size() == 1)
      return scale[0];
    int64_t inner = product(ArrayRef<int64_t>(shape).drop_front(axis + 1));
    return scale[(flat / inner) % shape[axis]];
  }
  std::vector<double> real() const {
    if (!quantized)
      return data;
    std::vector<double> r(data.size());
    for (size_t i = 0; i < data.size(); ++i)
      r[i] = data[i] * scaleAt(i);
    return r;
  }
};

// How a tensor's value holds its logical (ONNX) shape.
enum class Layout {
  Logical,  // as ONNX shapes it
  Nhwc,     // 4-D [N, C, H, W] held as [N, H, W, C]
  FlatNhwc, // [N, C*H*W] held as the NHWC flattening (h, w, c order)
};

enum class Quant {
  None,        // f32
  Quantized,   // i8, real value = value * scale (QuantizeLinear's output)
  Dequantized, // logically f32 (DequantizeLinear's output), held as the i8
};

struct Tensor {
  Value value;
  SmallVector<int64_t> shape; // logical
  Layout layout = Layout::Logical;
  int64_t c = 0, h = 0, w = 0; // FlatNhwc: what it was flattened from
  Quant quant = Quant::None;
  double scale = 1.0;
};

// ONNX -> NHWC and back.
constexpr int64_t kToNhwc[] = {0, 2, 3, 1}, kToNchw[] = {0, 3, 1, 2};

SmallVector<int64_t> permuteShape(ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> perm) {
  SmallVector<int64_t> out;
  for (int64_t p : perm)
    out.push_back(shape[p]);
  return out;
}

// data of `shape` -> the tensor permuted by `perm` (out dim i = in dim perm[i]).
std::vector<double> permuteData(ArrayRef<double> data, ArrayRef<int64_t> shape,
                                ArrayRef<int64_t> perm) {
  const size_t rank = shape.size();
  SmallVector<int64_t> inStride(rank, 1);
  for (int i = int(rank) - 2; i >= 0; --i)
    inStride[i] = inStride[i + 1] * shape[i + 1];
  SmallVector<int64_t> outShape = permuteShape(shape, perm);
  std::vector<double> out(data.size());
  SmallVector<int64_t> idx(rank, 0);
  for (size_t flat = 0; flat < data.size(); ++flat) {
    int64_t src = 0;
    for (size_t i = 0; i < rank; ++i)
      src += idx[i] * inStride[perm[i]];
    out[flat] = data[src];
    for (int i = int(rank) - 1; i >= 0; --i) {
      if (++idx[i] < outShape[i])
        break;
      idx[i] = 0;
    }
  }
  return out;
}

// npurt_conv.h's requantisation multiplier, as gen_mlperf.py computes it:
// real ~ m / 2^s with m in [2^30, 2^31).
bool quantMultiplier(double real, int64_t &m, int64_t &s) {
  if (!(real > 0) || !std::isfinite(real))
    return false;
  int64_t e = static_cast<int64_t>(std::floor(std::log2(real)));
  s = 30 - e;
  if (s < 0 || s > 63) // out of range below; also keeps exp2 finite
    return false;
  m = static_cast<int64_t>(std::nearbyint(real * std::exp2(double(s))));
  if (m >= (int64_t{1} << 31)) {
    m /= 2;
    s -= 1;
  }
  return s >= 0 && s <= 62;
}

class Importer {
public:
  Importer(MLIRContext *context, StringRef path,
           const OnnxImportOptions &options)
      : ctx(context), path(path.str()), options(options), b(context),
        fileLoc(FileLineColLoc::get(context, path, 0, 0)) {}

  OwningOpRef<ModuleOp> run();

private:
  using Handler = LogicalResult (Importer::*)();
  static const std::pair<const char *, Handler> kHandlers[];

  // --- errors -------------------------------------------------------------
  InFlightDiagnostic fileError() { return emitError(fileLoc); }
  // An error at the node being imported (its location names it).
  InFlightDiagnostic nodeError() {
    return emitError(loc) << node->op_type() << " (opset " << opset << "): ";
  }
  std::string nodeName(int index) const {
    const onnx::NodeProto &n = graph().node(index);
    return n.name().empty() ? n.op_type() + "#" + std::to_string(index)
                            : n.name();
  }
  // The node's name alone: every later diagnostic then starts with it
  // ("/s2_conv1/Conv": error: ...), and the manifest names it.
  Location nodeLocation(int index) {
    return NameLoc::get(StringAttr::get(ctx, nodeName(index)));
  }
  const onnx::GraphProto &graph() const { return model.graph(); }

  // --- reading the model --------------------------------------------------
  LogicalResult readModel();
  LogicalResult readTensor(const TensorProto &t, Const &c, bool initializer);
  LogicalResult readInputs(SmallVectorImpl<Type> &argTypes);
  LogicalResult foldBatchNorms();

  // --- node inputs and attributes -----------------------------------------
  StringRef inputName(int i) const {
    return i < node->input_size() ? StringRef(node->input(i)) : StringRef();
  }
  const Const *constInput(int i) const {
    StringRef name = inputName(i);
    auto it = consts.find(name);
    return name.empty() || it == consts.end() ? nullptr : &it->second;
  }
  FailureOr<Tensor> valueInput(int i);
  const onnx::AttributeProto *attr(StringRef name) const {
    for (const onnx::AttributeProto &a : node->attribute())
      if (a.name() == name)
        return &a;
    return nullptr;
  }
  int64_t attrInt(StringRef name, int64_t dflt) const {
    const onnx::AttributeProto *a = attr(name);
    return a ? a->i() : dflt;
  }
  float attrFloat(StringRef name, float dflt) const {
    const onnx::AttributeProto *a = attr(name);
    return a ? a->f() : dflt;
  }
  std::string attrString(StringRef name, StringRef dflt) const {
    const onnx::AttributeProto *a = attr(name);
    return a ? a->s() : dflt.str();
  }
  SmallVector<int64_t> attrInts(StringRef name, ArrayRef<int64_t> dflt) const {
    const onnx::AttributeProto *a = attr(name);
    if (!a)
      return SmallVector<int64_t>(dflt);
    return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
  }
  LogicalResult checkAttrs(ArrayRef<StringRef> allowed);
  LogicalResult checkInputs(int min, int max);
  FailureOr<double> scalarConst(int i, StringRef what);
  LogicalResult quantParams(int scaleIndex, int zpIndex, Const &scale,
                            bool perAxis);

  // --- values --------------------------------------------------------------
  void define(StringRef name, Tensor t) { values[name] = std::move(t); }
  void defineOutput(Tensor t) { define(node->output(0), std::move(t)); }
  RankedTensorType tensorType(ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }
  Type f32() { return b.getF32Type(); }
  Type i8() { return b.getIntegerType(8); }
  Type i32() { return b.getIntegerType(32); }
  Type i64() { return b.getIntegerType(64); }
  Value constant(ArrayRef<int64_t> shape, Type element, ArrayRef<double> data);
  Value scalar(Type type, double v);
  Value zeroFilled(ArrayRef<int64_t> shape, Type element, double fill = 0);
  Value permuted(Value v, ArrayRef<int64_t> perm);
  Value reshaped(Value v, ArrayRef<int64_t> to);
  Value toNhwc(const Tensor &t);
  Value toLogical(const Tensor &t);
  Value realValue(const Tensor &t, Layout layout);
  Value pad(Value v, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
            double fill, bool convInput = false);
  void markShared(Value c, StringRef initializer);

  // --- layers ---------------------------------------------------------------
  struct Epilogue {
    std::optional<Tensor> residual;
    bool relu = false;
    const Const *bias = nullptr; // MatMul's following Add
    std::string biasName;
    std::string output;
    double outScale = 1.0;
    SmallVector<Location> locs;
  };
  int soleConsumer(StringRef name) const;
  FailureOr<Epilogue> fuseEpilogue(bool int8, bool biasAdd, int64_t channels,
                                   ArrayRef<int64_t> shape);
  Value epilogue(Location at, Value acc, ArrayRef<int64_t> shape, Value bias,
                 ArrayRef<int64_t> mult, ArrayRef<int64_t> shift,
                 Value residual, int64_t rm, int64_t rs, bool relu, bool int8);
  LogicalResult finishLayer(Value acc, ArrayRef<int64_t> physShape,
                            ArrayRef<double> biasReal, bool int8,
                            double inScale, const Const &weights, Epilogue &ep,
                            Tensor result, const Const *qlinearBias,
                            double qlinearOutScale);
  LogicalResult convLayer(const Tensor &x, const Const &w, const Const *bias,
                          bool int8, const Const *qlinearBias,
                          double qlinearOutScale);
  LogicalResult matmulLayer(const Tensor &a, Const w, std::vector<double> bias,
                            bool hasBias, bool int8, const Const *qlinearBias,
                            double qlinearOutScale);
  using Body = std::function<Value(OpBuilder &, Location, ArrayRef<Value>)>;
  LogicalResult elementwise(ArrayRef<int> inputs, Body body);
  LogicalResult pooling(bool max, bool global);

  // --- op handlers --------------------------------------------------------
  LogicalResult importConv();
  LogicalResult importGemm();
  LogicalResult importMatMul();
  LogicalResult importBinary();
  LogicalResult importRelu();
  LogicalResult importClip();
  LogicalResult importSigmoid();
  LogicalResult importMaxPool() { return pooling(true, false); }
  LogicalResult importAveragePool() { return pooling(false, false); }
  LogicalResult importGlobalAveragePool() { return pooling(false, true); }
  LogicalResult importFlatten();
  LogicalResult importReshape();
  LogicalResult importTranspose();
  LogicalResult importSqueeze();
  LogicalResult importConcat();
  LogicalResult importPad();
  LogicalResult importSoftmax();
  LogicalResult importBatchNorm();
  LogicalResult importQuantize();
  LogicalResult importDequantize();
  struct QLinearOperands {
    Tensor input;
    Const weight;
    double yScale;
  };
  FailureOr<QLinearOperands> qlinearOperands(StringRef xName, StringRef wName,
                                             unsigned wRank, int64_t wAxis);
  LogicalResult importQLinearConv();
  LogicalResult importQLinearMatMul();
  LogicalResult importConstant();
  LogicalResult importIdentity();
  LogicalResult importCast();
  LogicalResult reshapeTo(const Tensor &x, ArrayRef<int64_t> to);
  LogicalResult foldConstantNode(bool &folded);

  MLIRContext *ctx;
  std::string path;
  const OnnxImportOptions &options;
  OpBuilder b;
  Location fileLoc;
  Location loc = fileLoc;
  onnx::ModelProto model;
  int64_t opset = 0;
  llvm::StringMap<Const> consts;
  llvm::StringMap<Tensor> values;
  llvm::StringMap<SmallVector<int>> consumers;
  llvm::StringSet<> graphOutputs;
  std::vector<bool> consumed;
  const onnx::NodeProto *node = nullptr;
  int nodeIndex = 0;
};

// Evaluated on constants only (foldConstantNode); Shape also of a computed
// tensor, whose shapes are static.
const StringRef kShapeOps[] = {"ConstantOfShape", "Shape", "Slice"};

const std::pair<const char *, Importer::Handler> Importer::kHandlers[] = {
    {"Conv", &Importer::importConv},
    {"Gemm", &Importer::importGemm},
    {"MatMul", &Importer::importMatMul},
    {"Add", &Importer::importBinary},
    {"Sub", &Importer::importBinary},
    {"Mul", &Importer::importBinary},
    {"Div", &Importer::importBinary},
    {"Relu", &Importer::importRelu},
    {"Clip", &Importer::importClip},
    {"Sigmoid", &Importer::importSigmoid},
    {"MaxPool", &Importer::importMaxPool},
    {"AveragePool", &Importer::importAveragePool},
    {"GlobalAveragePool", &Importer::importGlobalAveragePool},
    {"Flatten", &Importer::importFlatten},
    {"Reshape", &Importer::importReshape},
    {"Transpose", &Importer::importTranspose},
    {"Squeeze", &Importer::importSqueeze},
    {"Unsqueeze", &Importer::importSqueeze},
    {"Concat", &Importer::importConcat},
    {"Pad", &Importer::importPad},
    {"Softmax", &Importer::importSoftmax},
    {"BatchNormalization", &Importer::importBatchNorm},
    {"QuantizeLinear", &Importer::importQuantize},
    {"DequantizeLinear", &Importer::importDequantize},
    {"QLinearConv", &Importer::importQLinearConv},
    {"QLinearMatMul", &Importer::importQLinearMatMul},
    {"Constant", &Importer::importConstant},
    {"Identity", &Importer::importIdentity},
    {"Dropout", &Importer::importIdentity},
    {"Cast", &Importer::importCast},
};

// --- reading ------------------------------------------------------------------

LogicalResult Importer::readModel() {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return fileError() << "cannot read: " << buffer.getError().message();
  StringRef bytes = (*buffer)->getBuffer();
  if (bytes.size() > std::numeric_limits<int>::max())
    return fileError() << "too large for an ONNX model";
  // Protobuf accepts many byte strings as some message; a model must at
  // least carry its IR version, a graph and an opset.
  if (!model.ParseFromArray(bytes.data(), int(bytes.size())) ||
      !model.has_graph() || model.ir_version() <= 0)
    return fileError() << "not an ONNX model (the protobuf does not parse as "
                          "a ModelProto with a graph: truncated or another "
                          "format)";
  bool imported = false;
  for (const onnx::OperatorSetIdProto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") {
      opset = o.version();
      imported = true;
    }
  if (!imported)
    return fileError() << "the model has no opset import of the default "
                          "ONNX domain ('' or 'ai.onnx'), so its ops' "
                          "versions are unknown (supported: opsets "
                       << kMinOpset << "-" << kMaxOpset << ")";
  if (opset < kMinOpset || opset > kMaxOpset)
    return fileError() << "opset " << opset
                       << " of the default ONNX domain is not supported "
                          "(opsets "
                       << kMinOpset << "-" << kMaxOpset
                       << "; torch.onnx.export(..., opset_version=13))";
  return success();
}

LogicalResult Importer::readTensor(const TensorProto &t, Const &c,
                                   bool initializer) {
  auto where = [&]() {
    return initializer ? fileError() << "initializer '" << t.name() << "': "
                       : nodeError();
  };
  c.shape.assign(t.dims().begin(), t.dims().end());
  c.type = t.data_type();
  if (!shapeFits(c.shape))
    return where() << "a shape with negative dimensions or more than 2^28 "
                      "elements is not supported";
  const int64_t n = c.numel();
  size_t width = 0;
  switch (c.type) {
  case TensorProto::FLOAT:
  case TensorProto::INT32:
    width = 4;
    break;
  case TensorProto::INT8:
  case TensorProto::UINT8:
    width = 1;
    break;
  case TensorProto::INT64:
  case TensorProto::DOUBLE:
    width = 8;
    break;
  default:
    return where() << "element type " << typeName(c.type)
                   << " is not supported (float, int8, uint8, int32, int64, "
                      "double)";
  }
  std::string external;
  if (t.data_location() == TensorProto::EXTERNAL) {
    // ONNX's external data: a file next to the model, of which the tensor
    // takes [offset, offset + length). The location comes from the model,
    // so it is held to what ONNX allows (a relative path inside the model's
    // directory) and only the slice is read: a location of '/dev/zero' or
    // '../../etc/passwd' read a whole device or a file outside the model.
    std::string location;
    std::optional<uint64_t> offset, length;
    for (const onnx::StringStringEntryProto &e : t.external_data())
      if (e.key() == "location")
        location = e.value();
    for (const onnx::StringStringEntryProto &e : t.external_data()) {
      if (e.key() != "offset" && e.key() != "length")
        continue;
      // Digits only: atoll read 'abc' as 0 and '-5' as a negative offset.
      uint64_t v;
      StringRef text(e.value());
      if (text.empty() ||
          !llvm::all_of(text, [](char ch) { return ch >= '0' && ch <= '9'; }) ||
          text.getAsInteger(10, v) || v > uint64_t(INT64_MAX))
        return where() << "external data in '" << location << "': '"
                       << e.key() << "' is '" << e.value()
                       << "', not a byte count (decimal digits)";
      (e.key() == "offset" ? offset : length) = v;
    }
    auto fileFail = [&]() {
      return where() << "its data is in the external file '" << location
                     << "', which ";
    };
    if (location.empty())
      return where() << "its data is external but names no file (no "
                        "'location' key)";
    llvm::SmallVector<StringRef> parts;
    StringRef(location).split(parts, '/');
    if (llvm::sys::path::is_absolute(location) || location.front() == '/' ||
        location.find('\\') != std::string::npos)
      return fileFail() << "is not allowed: ONNX external data must be a "
                           "relative path inside the model's directory";
    if (llvm::is_contained(parts, ".."))
      return fileFail() << "is not allowed: a '..' component leaves the "
                           "model's directory";
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(path));
    if (dir.empty())
      dir = ".";
    llvm::SmallString<256> file(dir);
    llvm::sys::path::append(file, location);
    // Symbolic links are followed: the file they lead to must be inside the
    // model's directory too.
    llvm::SmallString<256> realDir, realFile;
    if (std::error_code ec = llvm::sys::fs::real_path(file, realFile))
      return fileFail() << "cannot be read: " << ec.message();
    if (std::error_code ec = llvm::sys::fs::real_path(dir, realDir))
      return fileFail() << "cannot be read: " << ec.message();
    llvm::sys::fs::file_status st;
    if (std::error_code ec = llvm::sys::fs::status(realFile, st))
      return fileFail() << "cannot be read: " << ec.message();
    if (st.type() != llvm::sys::fs::file_type::regular_file)
      return fileFail() << "is not a regular file";
    if (!StringRef(realFile).starts_with(realDir.str().str() + "/"))
      return fileFail() << "is not allowed: it leads outside the model's "
                           "directory (to '"
                        << realFile << "')";
    const uint64_t need = uint64_t(n) * width, size = st.getSize();
    if (length && *length != need)
      return where() << "external data length " << *length << " in '"
                     << location << "', but its shape and type need " << need
                     << " bytes (" << n << " " << typeName(c.type)
                     << " elements)";
    const uint64_t from = offset.value_or(0);
    if (from > size || size - from < need)
      return where() << "external data [" << from << ", " << from + need
                     << ") lies outside '" << location << "' (" << size
                     << " bytes)";
    auto buffer = llvm::MemoryBuffer::getFileSlice(realFile, need, from,
                                                   /*IsVolatile=*/false);
    if (!buffer)
      return fileFail() << "cannot be read: " << buffer.getError().message();
    external = (*buffer)->getBuffer().str();
  }
  const std::string &raw =
      t.data_location() == TensorProto::EXTERNAL ? external : t.raw_data();
  // The data's size is checked before the elements are allocated: a shape
  // may claim up to 2^28 elements (2 GiB of doubles) that the file does not
  // hold (found by fuzz_onnx).
  if (!raw.empty() || t.data_location() == TensorProto::EXTERNAL) {
    if (raw.size() != n * width)
      return where() << "holds " << raw.size() << " bytes of data for " << n
                     << " " << typeName(c.type) << " elements";
    c.data.resize(n);
    const char *p = raw.data();
    for (int64_t i = 0; i < n; ++i, p += width) {
      switch (c.type) {
      case TensorProto::FLOAT: {
        float v;
        std::memcpy(&v, p, 4);
        c.data[i] = v;
        break;
      }
      case TensorProto::INT32: {
        int32_t v;
        std::memcpy(&v, p, 4);
        c.data[i] = v;
        break;
      }
      case TensorProto::INT8:
        c.data[i] = static_cast<int8_t>(*p);
        break;
      case TensorProto::UINT8:
        c.data[i] = static_cast<uint8_t>(*p);
        break;
      case TensorProto::INT64: {
        int64_t v;
        std::memcpy(&v, p, 8);
        c.data[i] = double(v);
        break;
      }
      default: {
        double v;
        std::memcpy(&v, p, 8);
        c.data[i] = v;
      }
      }
    }
    return success();
  }
  auto take = [&](const auto &field) -> LogicalResult {
    if (field.size() != n)
      return where() << "holds " << field.size() << " values for " << n
                     << " elements";
    c.data.resize(n);
    for (int64_t i = 0; i < n; ++i)
      c.data[i] = double(field.Get(i));
    return success();
  };
  switch (c.type) {
  case TensorProto::FLOAT:
    return take(t.float_data());
  case TensorProto::INT64:
    return take(t.int64_data());
  case TensorProto::DOUBLE:
    return take(t.double_data());
  default:
    return take(t.int32_data());
  }
}

LogicalResult Importer::readInputs(SmallVectorImpl<Type> &argTypes) {
  llvm::StringMap<SmallVector<int64_t>> given;
  for (const std::string &s : options.inputShapes) {
    auto [name, dims] = StringRef(s).split('=');
    SmallVector<int64_t> shape;
    SmallVector<StringRef> parts;
    dims.split(parts, 'x');
    for (StringRef p : parts) {
      int64_t d;
      if (p.getAsInteger(10, d) || d <= 0) {
        emitError(fileLoc) << "--input-shape=" << s
                           << ": expected name=1x3x32x32 (positive sizes)";
        return failure();
      }
      shape.push_back(d);
    }
    if (name.empty() || dims.empty()) {
      emitError(fileLoc) << "--input-shape=" << s
                         << ": expected name=1x3x32x32";
      return failure();
    }
    // Two different shapes for one input: which one was meant is not ours
    // to guess (the last one won, silently).
    if (auto it = given.find(name); it != given.end() && it->second != shape) {
      emitError(fileLoc) << "--input-shape gives '" << name
                         << "' two shapes (" << dims << " and an earlier one)";
      return failure();
    }
    given[name] = shape;
  }
  // A name that is no graph input, before any input's own problem (a
  // dynamic input the misspelt name was meant for was reported instead).
  {
    llvm::StringSet<> inputs;
    for (const onnx::ValueInfoProto &in : graph().input())
      if (!consts.count(in.name()))
        inputs.insert(in.name());
    for (const auto &g : given)
      if (!inputs.count(g.getKey()))
        return fileError() << "--input-shape names '" << g.getKey()
                           << "', which is not a graph input";
  }
  llvm::StringSet<> used;
  auto func = cast<func::FuncOp>(b.getInsertionBlock()->getParentOp());
  for (const onnx::ValueInfoProto &in : graph().input()) {
    if (consts.count(in.name()))
      continue; // an initializer listed as an input (older exporters)
    const onnx::TypeProto_Tensor &tt = in.type().tensor_type();
    if (!in.type().has_tensor_type())
      return fileError() << "graph input '" << in.name() << "' is not a tensor";
    SmallVector<int64_t> shape;
    std::string dynamic, invalid;
    for (auto [i, d] : llvm::enumerate(tt.shape().dim())) {
      if (d.has_dim_value() && d.dim_value() > 0) {
        shape.push_back(d.dim_value());
        continue;
      }
      // A size of 0 or less is no dynamic dimension: the model is wrong.
      if (d.has_dim_value() && invalid.empty())
        invalid = "dimension " + std::to_string(i) + " of size " +
                  std::to_string(d.dim_value());
      else if (!d.has_dim_value() && dynamic.empty())
        dynamic = "dimension " + std::to_string(i) +
                  (d.has_dim_param() ? " ('" + d.dim_param() + "')" : "");
      shape.push_back(-1);
    }
    if (auto it = given.find(in.name()); it != given.end()) {
      used.insert(in.name());
      if (it->second.size() != shape.size())
        return fileError() << "--input-shape for '" << in.name()
                           << "' does not fit its shape in the model: rank "
                           << it->second.size() << " given, the model's is "
                           << shape.size();
      for (auto [i, d] : llvm::enumerate(shape))
        if (d > 0 && it->second[i] != d)
          return fileError() << "--input-shape for '" << in.name()
                             << "' does not fit its shape in the model: "
                                "dimension "
                             << i << " is " << d << " in the model, "
                             << it->second[i] << " given";
      shape = it->second;
    } else if (!invalid.empty()) {
      return fileError() << "graph input '" << in.name() << "' has an invalid "
                         << invalid
                         << " (sizes must be positive); give its shape with "
                            "--input-shape="
                         << in.name() << "=<d0>x<d1>x...";
    } else if (!dynamic.empty()) {
      return fileError() << "graph input '" << in.name() << "' has a dynamic "
                         << dynamic
                         << "; npuc needs static shapes: give it with "
                            "--input-shape="
                         << in.name() << "=<d0>x<d1>x...";
    }
    if (!tt.has_shape() || shape.empty())
      return fileError() << "graph input '" << in.name()
                         << "' has no shape; give it with --input-shape="
                         << in.name() << "=<d0>x<d1>x...";
    Tensor t;
    t.shape = shape;
    // The QDQ form's input quantisation is the network's i8 interface.
    auto cons = consumers.lookup(in.name());
    bool quantizedInput = false;
    if (cons.size() == 1 &&
        graph().node(cons[0]).op_type() == "QuantizeLinear" &&
        graph().node(cons[0]).output_size() >= 1) {
      node = &graph().node(cons[0]);
      nodeIndex = cons[0];
      loc = nodeLocation(nodeIndex);
      Const scale;
      if (failed(quantParams(1, 2, scale, /*perAxis=*/false)))
        return failure();
      quantizedInput = true;
      t.quant = Quant::Quantized;
      t.scale = scale.data[0];
      consumed[cons[0]] = true;
    }
    Type element;
    if (tt.elem_type() == TensorProto::FLOAT)
      element = quantizedInput ? i8() : f32();
    else if (tt.elem_type() == TensorProto::INT8)
      element = i8();
    else
      return fileError() << "graph input '" << in.name() << "' is "
                         << typeName(tt.elem_type())
                         << " (supported: float, int8)";
    if (element == i8() && t.quant == Quant::None)
      return fileError() << "graph input '" << in.name()
                         << "' is int8 without a scale (feed it through "
                            "DequantizeLinear, or export float)";
    argTypes.push_back(tensorType(shape, element));
    func.getBody().front().addArgument(argTypes.back(), fileLoc);
    t.value = func.getBody().front().getArguments().back();
    // Feature maps are NHWC inside: transpose the input once.
    if (shape.size() == 4) {
      // Named after the graph input, so the report's layer row and a
      // diagnostic say what this op is.
      loc = NameLoc::get(
          StringAttr::get(func.getContext(),
                          "input '" + in.name() + "' NCHW -> NHWC"),
          fileLoc);
      t.value = permuted(t.value, kToNhwc);
      t.layout = Layout::Nhwc;
    }
    define(
        quantizedInput
            ? StringRef(graph().node(consumers.lookup(in.name())[0]).output(0))
            : StringRef(in.name()),
        t);
  }
  for (const auto &g : given)
    if (!used.count(g.getKey()))
      return fileError() << "--input-shape names '" << g.getKey()
                         << "', which is not a graph input";
  if (argTypes.empty())
    return fileError() << "the graph has no input";
  return success();
}

// BatchNormalization right after a Conv/Gemm (its only consumer) becomes
// part of its weights and bias.
LogicalResult Importer::foldBatchNorms() {
  for (int i = 0; i < graph().node_size(); ++i) {
    const onnx::NodeProto &bn = graph().node(i);
    if (bn.op_type() != "BatchNormalization" || bn.input_size() != 5 ||
        bn.output_size() != 1)
      continue;
    auto users = consumers.lookup(bn.input(0));
    if (users.size() != 1 || graphOutputs.count(bn.input(0)))
      continue;
    int p = -1;
    for (int j = 0; j < i; ++j)
      for (const std::string &o : graph().node(j).output())
        if (o == bn.input(0))
          p = j;
    if (p < 0)
      continue;
    onnx::NodeProto &prod = *model.mutable_graph()->mutable_node(p);
    bool conv = prod.op_type() == "Conv";
    bool gemm = prod.op_type() == "Gemm";
    if (!conv && !gemm)
      continue;
    auto get = [&](StringRef name) -> const Const * {
      auto it = consts.find(name);
      return it == consts.end() || it->second.quantized ? nullptr : &it->second;
    };
    const Const *w = prod.input_size() > 1 ? get(prod.input(1)) : nullptr;
    const Const *bias = prod.input_size() > 2 ? get(prod.input(2)) : nullptr;
    const Const *g = get(bn.input(1)), *beta = get(bn.input(2)),
                *mean = get(bn.input(3)), *var = get(bn.input(4));
    if (!w || !g || !beta || !mean || !var)
      continue;
    bool transB = false;
    for (const onnx::AttributeProto &a : prod.attribute())
      if (a.name() == "transB")
        transB = a.i();
    if (gemm && (!transB || w->shape.size() != 2))
      continue; // per-output rows are the transposed B's
    const int64_t out = w->shape[0];
    if (g->numel() != out || beta->numel() != out || mean->numel() != out ||
        var->numel() != out || (prod.input_size() > 2 && !bias))
      continue;
    float eps = 1e-5f;
    for (const onnx::AttributeProto &a : bn.attribute())
      if (a.name() == "epsilon")
        eps = a.f();
    Const nw = *w, nb;
    nb.shape = {out};
    nb.data.assign(out, 0.0);
    const int64_t per = w->numel() / out;
    for (int64_t o = 0; o < out; ++o) {
      double k = g->data[o] / std::sqrt(var->data[o] + double(eps));
      for (int64_t j = 0; j < per; ++j)
        nw.data[o * per + j] = float(w->data[o * per + j] * k);
      double b0 = bias ? bias->data[o] : 0.0;
      nb.data[o] = float((b0 - mean->data[o]) * k + beta->data[o]);
    }
    std::string wName = prod.input(1) + "@bn:" + bn.output(0),
                bName = wName + ".bias";
    consts[wName] = std::move(nw);
    consts[bName] = std::move(nb);
    prod.set_input(1, wName);
    if (prod.input_size() > 2)
      prod.set_input(2, bName);
    else
      prod.add_input(bName);
    prod.set_output(0, bn.output(0));
    consumed[i] = true;
  }
  return success();
}

// --- inputs and attributes ------------------------------------------------------

FailureOr<Tensor> Importer::valueInput(int i) {
  StringRef name = inputName(i);
  auto it = values.find(name);
  if (it != values.end())
    return it->second;
  if (const Const *c = constInput(i)) {
    if (c->type != TensorProto::FLOAT || c->quantized)
      return nodeError() << "input " << i << " ('" << name << "') is a "
                         << typeName(c->type)
                         << " constant where a float tensor is expected";
    Tensor t;
    t.shape = c->shape;
    t.value = constant(c->shape, f32(), c->data);
    return t;
  }
  return nodeError() << "input " << i << " ('" << name
                     << "') is not produced by any node before it";
}

LogicalResult Importer::checkAttrs(ArrayRef<StringRef> allowed) {
  for (const onnx::AttributeProto &a : node->attribute())
    if (!llvm::is_contained(allowed, a.name()))
      return nodeError() << "attribute '" << a.name() << "' is not supported";
  return success();
}

LogicalResult Importer::checkInputs(int min, int max) {
  int n = node->input_size();
  while (n > 0 && node->input(n - 1).empty())
    --n;
  if (n < min || n > max)
    return nodeError() << "has " << n << " inputs (expected " << min
                       << (min == max ? "" : "-" + std::to_string(max)) << ")";
  if (node->output_size() < 1)
    return nodeError() << "has no output";
  return success();
}

FailureOr<double> Importer::scalarConst(int i, StringRef what) {
  const Const *c = constInput(i);
  if (!c || c->numel() != 1)
    return nodeError() << what << " (input " << i
                       << ") must be a constant scalar";
  return c->real()[0];
}

// Scale and zero point of a QuantizeLinear/DequantizeLinear/QLinear* node:
// int8 with zero point 0 (the symmetric quantisation npurt_conv.h runs).
LogicalResult Importer::quantParams(int scaleIndex, int zpIndex, Const &scale,
                                    bool perAxis) {
  const Const *s = constInput(scaleIndex);
  if (!s || s->type != TensorProto::FLOAT)
    return nodeError() << "the scale (input " << scaleIndex
                       << ") must be a float constant";
  if (!perAxis && s->numel() != 1)
    return nodeError() << "a per-axis scale is supported for constant "
                          "weights only (here: one scale per tensor)";
  for (double v : s->data)
    if (!(v > 0) || !std::isfinite(v))
      return nodeError() << "scale " << v << " is not positive";
  const Const *zp = constInput(zpIndex);
  if (!zp)
    return nodeError()
           << "no zero point: ONNX then quantises to uint8; npuc runs int8 "
              "with zero point 0 (export with an int8 zero point)";
  if (zp->type != TensorProto::INT8)
    return nodeError() << "zero point of type " << typeName(zp->type)
                       << " is not supported (int8, zero point 0)";
  if (llvm::any_of(zp->data, [](double v) { return v != 0; }))
    return nodeError() << "a non-zero zero point is not supported (symmetric "
                          "int8, as npurt_conv.h runs)";
  scale = *s;
  return success();
}

// --- building blocks -----------------------------------------------------------

Value Importer::constant(ArrayRef<int64_t> shape, Type element,
                         ArrayRef<double> data) {
  auto type = tensorType(shape, element);
  DenseElementsAttr attr;
  if (element.isF32()) {
    std::vector<float> v(data.begin(), data.end());
    attr = DenseElementsAttr::get(type, ArrayRef<float>(v));
  } else if (element.isInteger(8)) {
    std::vector<int8_t> v;
    for (double d : data)
      v.push_back(saturating<int8_t>(d));
    attr = DenseElementsAttr::get(type, ArrayRef<int8_t>(v));
  } else if (element.isInteger(32)) {
    std::vector<int32_t> v;
    for (double d : data)
      v.push_back(saturating<int32_t>(d));
    attr = DenseElementsAttr::get(type, ArrayRef<int32_t>(v));
  } else {
    std::vector<int64_t> v;
    for (double d : data)
      v.push_back(saturating<int64_t>(d));
    attr = DenseElementsAttr::get(type, ArrayRef<int64_t>(v));
  }
  return b.create<arith::ConstantOp>(loc, attr);
}

Value Importer::scalar(Type type, double v) {
  if (type.isF32())
    return b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(float(v)));
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(type, saturating<int64_t>(v)));
}

Value Importer::zeroFilled(ArrayRef<int64_t> shape, Type element, double fill) {
  Value empty = b.create<tensor::EmptyOp>(loc, shape, element);
  return b
      .create<linalg::FillOp>(loc, ValueRange{scalar(element, fill)},
                              ValueRange{empty})
      .getResult(0);
}

// out dim i = in dim perm[i], as an elementwise generic (the workers run it).
Value Importer::permuted(Value v, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> outShape = permuteShape(type.getShape(), perm);
  const unsigned rank = perm.size();
  // Moving only size-1 dimensions keeps the element order: a view.
  SmallVector<int64_t> moved;
  for (int64_t p : perm)
    if (type.getDimSize(p) != 1)
      moved.push_back(p);
  if (llvm::is_sorted(moved))
    return reshaped(v, outShape);
  SmallVector<AffineExpr> inExprs(rank);
  for (unsigned i = 0; i < rank; ++i)
    inExprs[perm[i]] = b.getAffineDimExpr(i);
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, inExprs, ctx),
                                 b.getMultiDimIdentityMap(rank)};
  Value empty = b.create<tensor::EmptyOp>(loc, outShape, type.getElementType());
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{empty.getType()}, ValueRange{v}, ValueRange{empty},
          maps,
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [](OpBuilder &nb, Location l, ValueRange args) {
            nb.create<linalg::YieldOp>(l, args[0]);
          })
      .getResult(0);
}

// Row-major reshape through a collapse to 1-D and an expansion (views).
Value Importer::reshaped(Value v, ArrayRef<int64_t> to) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == to)
    return v;
  auto all = [](int64_t rank) {
    ReassociationIndices r;
    for (int64_t i = 0; i < rank; ++i)
      r.push_back(i);
    return SmallVector<ReassociationIndices>{r};
  };
  Value flat = v;
  if (type.getRank() != 1)
    flat = b.create<tensor::CollapseShapeOp>(
        loc, tensorType({type.getNumElements()}, type.getElementType()), v,
        all(type.getRank()));
  if (to.size() == 1)
    return flat;
  return b.create<tensor::ExpandShapeOp>(
      loc, tensorType(to, type.getElementType()), flat, all(to.size()));
}

Value Importer::toNhwc(const Tensor &t) {
  if (t.layout == Layout::Nhwc)
    return t.value;
  return permuted(toLogical(t), kToNhwc);
}

Value Importer::toLogical(const Tensor &t) {
  switch (t.layout) {
  case Layout::Logical:
    return t.value;
  case Layout::Nhwc:
    return permuted(t.value, kToNchw);
  case Layout::FlatNhwc: {
    Value nhwc = reshaped(t.value, {t.shape[0], t.h, t.w, t.c});
    return reshaped(permuted(nhwc, kToNchw), t.shape);
  }
  }
  llvm_unreachable("layout");
}

// The f32 value of `t` in `layout` (an int8 tensor dequantised).
Value Importer::realValue(const Tensor &t, Layout layout) {
  Value v = layout == Layout::Logical ? toLogical(t) : t.value;
  if (t.quant == Quant::None)
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  const unsigned rank = type.getRank();
  Value empty = b.create<tensor::EmptyOp>(loc, type.getShape(), f32());
  double s = t.scale;
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{empty.getType()}, ValueRange{v}, ValueRange{empty},
          SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(rank)),
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value f = nb.create<arith::SIToFPOp>(l, f32(), args[0]);
            Value k = nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(s));
            nb.create<linalg::YieldOp>(
                l, ValueRange{nb.create<arith::MulFOp>(l, f, k)});
          })
      .getResult(0);
}

Value Importer::pad(Value v, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                    double fill, bool convInput) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < type.getRank(); ++i)
    shape.push_back(type.getDimSize(i) + low[i] + high[i]);
  SmallVector<OpFoldResult> lo, hi;
  for (size_t i = 0; i < low.size(); ++i) {
    lo.push_back(b.getIndexAttr(low[i]));
    hi.push_back(b.getIndexAttr(high[i]));
  }
  // A pad no convolution folds (before a pooling, or a Pad node's own)
  // becomes a generic writing the source at an offset, whose map linalg
  // rejects when a dimension is padded at its end only (TF "same",
  // ZeroPad2d((0, 1, 0, 1)): the offset is 0, and a plain loop index must
  // cover the whole dimension). Such a pad is written as the filled tensor
  // and an insert_slice of the source, which npu-legalize-linalg lowers
  // with that case handled (a concatenation's first part).
  bool endOnly = false;
  for (size_t i = 0; i < low.size(); ++i)
    endOnly |= low[i] == 0 && high[i] > 0;
  if (!convInput && endOnly) {
    Value filled = zeroFilled(shape, type.getElementType(), fill);
    SmallVector<OpFoldResult> sizes, strides;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
      strides.push_back(b.getIndexAttr(1));
    }
    return b.create<tensor::InsertSliceOp>(loc, v, filled, lo, sizes,
                                           strides);
  }
  return b.create<tensor::PadOp>(loc, tensorType(shape, type.getElementType()),
                                 v, lo, hi,
                                 scalar(type.getElementType(), fill));
}

// --- layers with an epilogue ----------------------------------------------------

void Importer::markShared(Value c, StringRef initializer) {
  auto it = consumers.find(initializer);
  if (initializer.empty() || it == consumers.end() || it->second.size() < 2)
    return;
  c.getDefiningOp()->setAttr(
      kSharedAttr, b.getStringAttr("initializer '" + initializer +
                                   "' is read by nodes '" +
                                   nodeName(it->second[0]) + "' and '" +
                                   nodeName(it->second[1]) + "'"));
}

int Importer::soleConsumer(StringRef name) const {
  if (graphOutputs.count(name))
    return -1;
  auto it = consumers.find(name);
  if (it == consumers.end() || it->second.size() != 1)
    return -1;
  // A consumer without an output is not fused into its producer: it is
  // reported when its own turn comes (found by fuzz_onnx: fusing read its
  // missing output(0) and protobuf threw).
  if (graph().node(it->second[0]).output_size() < 1)
    return -1;
  return it->second[0];
}

// The nodes after the current Conv/Gemm/MatMul that its epilogue does:
// [bias Add (MatMul)] [residual Add] [Relu] [QuantizeLinear (int8)].
FailureOr<Importer::Epilogue> Importer::fuseEpilogue(bool int8, bool biasAdd,
                                                     int64_t channels,
                                                     ArrayRef<int64_t> shape) {
  Epilogue ep;
  ep.locs.push_back(loc);
  std::string cur = node->output(0);
  auto take = [&](int next) {
    consumed[next] = true;
    ep.locs.push_back(nodeLocation(next));
    cur = graph().node(next).output(0);
  };
  auto other = [&](const onnx::NodeProto &n) -> StringRef {
    if (n.input_size() != 2)
      return StringRef();
    return n.input(0) == cur ? n.input(1) : n.input(0);
  };
  for (;;) {
    int next = soleConsumer(cur);
    if (next < 0)
      break;
    const onnx::NodeProto &n = graph().node(next);
    if (n.op_type() == "Add" && !ep.residual && !ep.relu && !ep.bias &&
        biasAdd && !int8) {
      auto c = consts.find(other(n));
      if (c != consts.end() && !c->second.quantized &&
          c->second.type == TensorProto::FLOAT &&
          c->second.numel() == channels && c->second.shape.back() == channels) {
        ep.bias = &c->second;
        ep.biasName = c->first().str();
        take(next);
        continue;
      }
    }
    if (n.op_type() == "Add" && !ep.residual && !ep.relu) {
      auto v = values.find(other(n));
      if (v != values.end() && v->second.shape == SmallVector<int64_t>(shape) &&
          v->second.quant == (int8 ? Quant::Dequantized : Quant::None) &&
          n.input(0) != n.input(1)) {
        ep.residual = v->second;
        take(next);
        continue;
      }
    }
    if (!ep.relu && n.op_type() == "Relu") {
      ep.relu = true;
      take(next);
      continue;
    }
    if (!ep.relu && n.op_type() == "Clip" && n.input_size() >= 2 &&
        (n.input_size() < 3 || n.input(2).empty())) {
      auto lo = consts.find(n.input(1));
      if (lo != consts.end() && lo->second.numel() == 1 &&
          lo->second.real()[0] == 0.0) {
        ep.relu = true;
        take(next);
        continue;
      }
    }
    break;
  }
  ep.output = cur;
  if (!int8)
    return ep;
  int q = soleConsumer(cur);
  if (q < 0 || graph().node(q).op_type() != "QuantizeLinear")
    return nodeError() << "an int8 " << node->op_type()
                       << " (DequantizeLinear inputs) must end in one "
                          "QuantizeLinear that sets its output scale (after "
                          "an optional residual Add and Relu)";
  const onnx::NodeProto *self = node;
  int selfIndex = nodeIndex;
  Location selfLoc = loc;
  node = &graph().node(q);
  nodeIndex = q;
  loc = nodeLocation(q);
  Const scale;
  LogicalResult ok = quantParams(1, 2, scale, /*perAxis=*/false);
  node = self;
  nodeIndex = selfIndex;
  loc = selfLoc;
  if (failed(ok))
    return failure();
  ep.outScale = scale.data[0];
  take(q);
  ep.output = cur;
  return ep;
}

// The elementwise generic after a conv/matmul, op for op what
// gen_mlperf.py writes (npu-fuse-conv matches this sequence).
Value Importer::epilogue(Location at, Value acc, ArrayRef<int64_t> shape,
                         Value bias, ArrayRef<int64_t> mult,
                         ArrayRef<int64_t> shift, Value residual, int64_t rm,
                         int64_t rs, bool relu, bool int8) {
  const unsigned rank = shape.size();
  const int64_t c = shape.back();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap ch = AffineMap::get(rank, 0, b.getAffineDimExpr(rank - 1));
  SmallVector<Value> ins = {acc, bias};
  SmallVector<AffineMap> maps = {id, ch};
  if (int8) {
    ins.push_back(
        constant({c}, i64(), std::vector<double>(mult.begin(), mult.end())));
    ins.push_back(
        constant({c}, i64(), std::vector<double>(shift.begin(), shift.end())));
    maps.append({ch, ch});
  }
  if (residual) {
    ins.push_back(residual);
    maps.push_back(id);
  }
  maps.push_back(id);
  Type et = int8 ? i8() : f32();
  Value empty = b.create<tensor::EmptyOp>(at, shape, et);
  auto generic = b.create<linalg::GenericOp>(
      at, TypeRange{empty.getType()}, ins, ValueRange{empty}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        auto c64 = [&](int64_t v) {
          return nb.create<arith::ConstantOp>(l, nb.getI64IntegerAttr(v));
        };
        if (!int8) {
          Value y = nb.create<arith::AddFOp>(l, args[0], args[1]);
          if (residual)
            y = nb.create<arith::AddFOp>(l, y, args[2]);
          if (relu)
            y = nb.create<arith::MaximumFOp>(
                l, y,
                nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(0.0f)));
          nb.create<linalg::YieldOp>(l, y);
          return;
        }
        Type t64 = nb.getI64Type(), t32 = nb.getI32Type();
        Value one = c64(1);
        auto requant = [&](Value x64, Value m, Value s) {
          Value p = nb.create<arith::MulIOp>(l, x64, m);
          Value half0 = nb.create<arith::ShLIOp>(l, one, s);
          Value half = nb.create<arith::ShRSIOp>(l, half0, one);
          Value q = nb.create<arith::AddIOp>(l, p, half);
          Value v0 = nb.create<arith::ShRSIOp>(l, q, s);
          Value v32 = nb.create<arith::TruncIOp>(l, t32, v0);
          return nb.create<arith::ExtSIOp>(l, t64, v32).getResult();
        };
        Value x = nb.create<arith::AddIOp>(l, args[0], args[1]);
        Value x64 = nb.create<arith::ExtSIOp>(l, t64, x);
        // `one` is created before the multiply in gen_mlperf.py's text;
        // constants are not part of the matched sequence.
        Value y = requant(x64, args[2], args[3]);
        if (residual) {
          Value r64 = nb.create<arith::ExtSIOp>(l, t64, args[4]);
          Value rv = requant(r64, c64(rm), c64(rs));
          y = nb.create<arith::AddIOp>(l, y, rv);
        }
        Value c1 = nb.create<arith::MaxSIOp>(l, y, c64(relu ? 0 : -128));
        Value c2 = nb.create<arith::MinSIOp>(l, c1, c64(127));
        Value z = nb.create<arith::TruncIOp>(l, nb.getI8Type(), c2);
        nb.create<linalg::YieldOp>(l, z);
      });
  return generic.getResult(0);
}

// Bias, requantisation and epilogue of a conv/matmul accumulator `acc`
// whose output channels are the last physical dimension.
LogicalResult Importer::finishLayer(Value acc, ArrayRef<int64_t> physShape,
                                    ArrayRef<double> biasReal, bool int8,
                                    double inScale, const Const &weights,
                                    Epilogue &ep, Tensor result,
                                    const Const *qlinearBias,
                                    double qlinearOutScale) {
  const int64_t c = physShape.back();
  Location at = FusedLoc::get(ctx, ep.locs);
  Value residual;
  if (ep.residual)
    residual = result.layout == Layout::Nhwc ? toNhwc(*ep.residual)
                                             : toLogical(*ep.residual);
  // A layer without a bias adds zeros (the epilogue npu-fuse-conv and
  // npu-derive-training match always has a bias operand).
  const bool noBias = biasReal.empty();
  std::vector<double> zeros;
  if (noBias) {
    zeros.assign(c, 0.0);
    biasReal = zeros;
  }
  if (!int8) {
    Value bias = constant({c}, f32(), biasReal);
    if (noBias)
      bias.getDefiningOp()->setAttr(kNoBiasAttr, b.getUnitAttr());
    else
      markShared(bias, !ep.biasName.empty()    ? StringRef(ep.biasName)
                       : node->input_size() > 2 ? StringRef(node->input(2))
                                                : StringRef());
    result.value = epilogue(at, acc, physShape, bias, {}, {}, residual, 0, 0,
                            ep.relu, false);
    define(ep.output, result);
    return success();
  }
  double outScale = qlinearBias ? qlinearOutScale : ep.outScale;
  std::vector<double> bq(c);
  SmallVector<int64_t> mult(c), shift(c);
  for (int64_t o = 0; o < c; ++o) {
    double sw = weights.scale.size() == 1 ? weights.scale[0] : weights.scale[o];
    bq[o] = qlinearBias ? qlinearBias->data[o]
                        : std::nearbyint(biasReal[o] / (inScale * sw));
    if (std::abs(bq[o]) > 2147483647.0)
      return nodeError() << "the int32 bias of channel " << o
                         << " overflows (bias / (input scale * weight "
                            "scale) = "
                         << bq[o] << ")";
    if (!quantMultiplier(inScale * sw / outScale, mult[o], shift[o]))
      return nodeError() << "the requantisation scale input * weight / "
                            "output = "
                         << inScale * sw / outScale << " of channel " << o
                         << " is out of range (shift 0..62)";
  }
  int64_t rm = 0, rs = 0;
  if (ep.residual && !quantMultiplier(ep.residual->scale / outScale, rm, rs))
    return nodeError() << "the residual's scale ratio "
                       << ep.residual->scale / outScale << " is out of range";
  Value bias = constant({c}, i32(), bq);
  result.value = epilogue(at, acc, physShape, bias, mult, shift, residual, rm,
                          rs, ep.relu, true);
  result.quant = Quant::Quantized;
  result.scale = outScale;
  define(ep.output, result);
  return success();
}

LogicalResult Importer::convLayer(const Tensor &x, const Const &w,
                                  const Const *bias, bool int8,
                                  const Const *qlinearBias,
                                  double qlinearOutScale) {
  if (x.shape.size() != 4 || w.shape.size() != 4)
    return nodeError() << "only 2-D convolutions are supported (4-D input "
                          "and weights), not rank "
                       << x.shape.size();
  const int64_t n = x.shape[0], cin = x.shape[1], h = x.shape[2],
                wd = x.shape[3];
  const int64_t cout = w.shape[0], kh = w.shape[2], kw = w.shape[3];
  const int64_t group = attrInt("group", 1);
  const bool depthwise =
      group > 1 && group == cin && cout == cin && w.shape[1] == 1;
  if (group != 1 && !depthwise)
    return nodeError() << "group=" << group
                       << " is not supported (1, or depthwise: group = "
                          "input channels = output channels)";
  if (!depthwise && w.shape[1] != cin)
    return nodeError() << "weights [" << w.shape[0] << ", " << w.shape[1]
                       << ", ...] do not match the " << cin
                       << " input channels";
  SmallVector<int64_t> ks = attrInts("kernel_shape", {kh, kw});
  if (ks.size() != 2 || ks[0] != kh || ks[1] != kw)
    return nodeError() << "kernel_shape does not match the weights";
  SmallVector<int64_t> strides = attrInts("strides", {1, 1}),
                       dil = attrInts("dilations", {1, 1}),
                       pads = attrInts("pads", {0, 0, 0, 0});
  if (strides.size() != 2 || dil.size() != 2 || pads.size() != 4)
    return nodeError() << "strides, dilations, pads must have 2, 2, 4 values";
  if (llvm::any_of(strides, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(dil, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(pads, [](int64_t v) { return v < 0; }) || kh < 1 || kw < 1)
    return nodeError() << "strides and dilations must be >= 1, pads >= 0, "
                          "the kernel non-empty";
  // Bounded so that the window and output arithmetic below cannot overflow.
  auto tooLarge = [](int64_t v) { return v > kMaxElements; };
  if (llvm::any_of(strides, tooLarge) || llvm::any_of(dil, tooLarge) ||
      llvm::any_of(pads, tooLarge))
    return nodeError() << "strides, dilations and pads larger than 2^28 are "
                          "not supported";
  std::string autoPad = attrString("auto_pad", "NOTSET");
  const int64_t ekh = (kh - 1) * dil[0] + 1, ekw = (kw - 1) * dil[1] + 1;
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    int64_t sizes[2] = {h, wd}, ek[2] = {ekh, ekw};
    for (int i = 0; i < 2; ++i) {
      int64_t out = (sizes[i] + strides[i] - 1) / strides[i];
      int64_t total =
          std::max<int64_t>((out - 1) * strides[i] + ek[i] - sizes[i], 0);
      int64_t small = total / 2, big = total - small;
      pads[i] = autoPad == "SAME_UPPER" ? small : big;
      pads[i + 2] = autoPad == "SAME_UPPER" ? big : small;
    }
  } else if (autoPad == "VALID") {
    pads = {0, 0, 0, 0};
  } else if (autoPad != "NOTSET") {
    return nodeError() << "auto_pad=" << autoPad << " is not supported";
  }
  const int64_t oh = (h + pads[0] + pads[2] - ekh) / strides[0] + 1;
  const int64_t ow = (wd + pads[1] + pads[3] - ekw) / strides[1] + 1;
  if (oh <= 0 || ow <= 0)
    return nodeError() << "the kernel is larger than the padded input";
  if (!shapeFits({n, cin, h + pads[0] + pads[2], wd + pads[1] + pads[3]}) ||
      !shapeFits({n, cout, oh, ow}))
    return nodeError() << "the padded input or the output would hold more "
                          "than 2^28 elements";
  if (bias && bias->numel() != cout)
    return nodeError() << "bias has " << bias->numel() << " values for " << cout
                       << " output channels";

  FailureOr<Epilogue> ep =
      fuseEpilogue(int8 && !qlinearBias, false, cout, {n, cout, oh, ow});
  if (failed(ep))
    return failure();
  Type et = int8 ? i8() : f32(), acct = int8 ? i32() : f32();
  Value in =
      pad(toNhwc(x), {0, pads[0], pads[1], 0}, {0, pads[2], pads[3], 0}, 0,
          /*convInput=*/true);
  SmallVector<int64_t> outShape = {n, oh, ow, cout};
  Value acc = zeroFilled(outShape, acct);
  auto attrs = SmallVector<NamedAttribute>{
      b.getNamedAttr("dilations", b.getI64TensorAttr(dil)),
      b.getNamedAttr("strides", b.getI64TensorAttr(strides))};
  Value conv;
  if (depthwise) {
    // [C, 1, kh, kw] -> [kh, kw, C]
    std::vector<double> hwc = permuteData(w.data, {cout, kh, kw}, {1, 2, 0});
    Value wt = constant({kh, kw, cout}, et, hwc);
    conv = b.create<linalg::DepthwiseConv2DNhwcHwcOp>(
                loc, TypeRange{acc.getType()}, ValueRange{in, wt},
                ValueRange{acc}, attrs)
               .getResult(0);
  } else {
    // [O, I, kh, kw] -> [kh, kw, I, O]
    std::vector<double> hwcf = permuteData(w.data, w.shape, {2, 3, 1, 0});
    Value wt = constant({kh, kw, cin, cout}, et, hwcf);
    conv = b.create<linalg::Conv2DNhwcHwcfOp>(loc, TypeRange{acc.getType()},
                                              ValueRange{in, wt},
                                              ValueRange{acc}, attrs)
               .getResult(0);
  }
  if (!int8)
    markShared(conv.getDefiningOp()->getOperand(1), node->input(1));
  std::vector<double> biasReal = bias ? bias->real() : std::vector<double>();
  Tensor result;
  result.shape = {n, cout, oh, ow};
  result.layout = Layout::Nhwc;
  return finishLayer(conv, outShape, biasReal, int8, x.scale, w, *ep, result,
                     qlinearBias, qlinearOutScale);
}

// a [M, K] x w [K, N] (+ bias [N]) and the epilogue.
LogicalResult Importer::matmulLayer(const Tensor &a, Const w,
                                    std::vector<double> bias, bool hasBias,
                                    bool int8, const Const *qlinearBias,
                                    double qlinearOutScale) {
  if (a.shape.size() != 2 || w.shape.size() != 2)
    return nodeError() << "only 2-D matrix products are supported (input "
                          "rank "
                       << a.shape.size() << ", weight rank " << w.shape.size()
                       << ")";
  const int64_t m = a.shape[0], k = a.shape[1], n = w.shape[1];
  if (w.shape[0] != k)
    return nodeError() << "inner dimensions differ: [" << m << ", " << k
                       << "] x [" << w.shape[0] << ", " << n << "]";
  // The input is the NHWC flattening of a feature map: reorder the weight
  // rows from (c, h, w) to (h, w, c) instead of transposing activations.
  if (a.layout == Layout::FlatNhwc) {
    std::vector<double> rows = w.data;
    for (int64_t hh = 0; hh < a.h; ++hh)
      for (int64_t ww = 0; ww < a.w; ++ww)
        for (int64_t cc = 0; cc < a.c; ++cc) {
          int64_t phys = (hh * a.w + ww) * a.c + cc;
          int64_t logical = (cc * a.h + hh) * a.w + ww;
          std::copy_n(w.data.begin() + logical * n, n, rows.begin() + phys * n);
        }
    w.data = std::move(rows);
  }
  FailureOr<Epilogue> ep =
      fuseEpilogue(int8 && !qlinearBias, !hasBias && !int8, n, {m, n});
  if (failed(ep))
    return failure();
  if (ep->bias)
    bias = ep->bias->real();
  Type et = int8 ? i8() : f32(), acct = int8 ? i32() : f32();
  Value wt = constant({k, n}, et, w.data);
  if (!int8)
    markShared(wt, node->input(1));
  Value acc = zeroFilled({m, n}, acct);
  Value mm =
      b.create<linalg::MatmulOp>(loc, TypeRange{acc.getType()},
                                 ValueRange{a.value, wt}, ValueRange{acc})
          .getResult(0);
  Tensor result;
  result.shape = {m, n};
  return finishLayer(mm, {m, n}, bias, int8, a.scale, w, *ep, result,
                     qlinearBias, qlinearOutScale);
}

// An elementwise generic over `inputs` (node input indices) with numpy
// broadcasting of constants; computed tensors must have the output's shape.
LogicalResult Importer::elementwise(ArrayRef<int> inputs, Body body) {
  SmallVector<const Const *> cs;
  SmallVector<Tensor> ts;
  SmallVector<int64_t> out;
  for (int i : inputs) {
    const Const *c = values.count(inputName(i)) ? nullptr : constInput(i);
    cs.push_back(c);
    if (c && c->type != TensorProto::FLOAT && !c->quantized)
      return nodeError() << "type mismatch: input " << i << " is "
                         << typeName(c->type) << ", expected float";
    if (c) {
      ts.emplace_back();
      continue;
    }
    FailureOr<Tensor> t = valueInput(i);
    if (failed(t))
      return failure();
    if (t->quant == Quant::Quantized)
      return nodeError() << "input " << i
                         << " is an int8 tensor (a QuantizeLinear output); "
                            "arithmetic on int8 tensors is not supported "
                            "(DequantizeLinear first)";
    ts.push_back(*t);
    if (!out.empty() && out != t->shape)
      return nodeError() << "broadcasting between computed tensors is not "
                            "supported (shapes differ)";
    out = t->shape;
  }
  if (out.empty())
    return nodeError() << "every input is a constant (fold it before "
                          "exporting)";
  // Work in the layout the computed inputs share; constants follow it.
  Layout layout = Layout::Logical;
  const Tensor *first = nullptr;
  for (const Tensor &t : ts)
    if (t.value) {
      if (!first) {
        first = &t;
        layout = t.layout;
      } else if (t.layout != first->layout ||
                 (t.layout == Layout::FlatNhwc &&
                  (t.c != first->c || t.h != first->h)))
        layout = Layout::Logical;
    }
  for (const Const *c : cs)
    if (c && c->numel() != 1 && layout == Layout::FlatNhwc)
      layout = Layout::Logical;
  for (const Const *c : cs)
    if (c && c->shape.size() > out.size())
      return nodeError() << "a constant input has a higher rank than the "
                            "output";
  SmallVector<int64_t> phys =
      layout == Layout::Nhwc ? permuteShape(out, kToNhwc) : out;
  if (layout == Layout::FlatNhwc)
    phys = SmallVector<int64_t>(
        cast<RankedTensorType>(first->value.getType()).getShape());
  const unsigned rank = phys.size();
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  SmallVector<std::optional<double>> scalars;
  for (auto [c, t] : llvm::zip(cs, ts)) {
    if (!c) {
      ins.push_back(realValue(t, layout));
      maps.push_back(b.getMultiDimIdentityMap(rank));
      scalars.push_back(std::nullopt);
      continue;
    }
    std::vector<double> data = c->real();
    if (c->numel() == 1) {
      scalars.push_back(data[0]);
      continue;
    }
    SmallVector<int64_t> shape(out.size() - c->shape.size(), 1);
    shape.append(c->shape.begin(), c->shape.end());
    for (auto [d, o] : llvm::zip(shape, out))
      if (d != 1 && d != o)
        return nodeError() << "a constant of shape does not broadcast to the "
                              "output";
    if (layout == Layout::Nhwc) {
      data = permuteData(data, shape, kToNhwc);
      shape = permuteShape(shape, kToNhwc);
    }
    SmallVector<int64_t> kept;
    SmallVector<AffineExpr> exprs;
    for (unsigned d = 0; d < rank; ++d)
      if (shape[d] == phys[d]) {
        kept.push_back(shape[d]);
        exprs.push_back(b.getAffineDimExpr(d));
      }
    ins.push_back(constant(kept, f32(), data));
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
    scalars.push_back(std::nullopt);
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value empty = b.create<tensor::EmptyOp>(loc, phys, f32());
  Value r =
      b.create<linalg::GenericOp>(
           loc, TypeRange{empty.getType()}, ins, ValueRange{empty}, maps,
           SmallVector<utils::IteratorType>(rank,
                                            utils::IteratorType::parallel),
           [&](OpBuilder &nb, Location l, ValueRange args) {
             SmallVector<Value> operands;
             unsigned next = 0;
             for (const std::optional<double> &s : scalars)
               operands.push_back(s ? nb.create<arith::ConstantOp>(
                                            l, nb.getF32FloatAttr(float(*s)))
                                          .getResult()
                                    : args[next++]);
             nb.create<linalg::YieldOp>(l, body(nb, l, operands));
           })
          .getResult(0);
  Tensor result;
  result.value = r;
  result.shape = out;
  result.layout = layout;
  if (layout == Layout::FlatNhwc) {
    result.c = first->c;
    result.h = first->h;
    result.w = first->w;
  }
  defineOutput(result);
  return success();
}

// MaxPool / AveragePool / GlobalAveragePool (NHWC pooling; int8 when the
// input is an int8 tensor).
LogicalResult Importer::pooling(bool max, bool global) {
  if (failed(checkInputs(1, 1)))
    return failure();
  if (global ? failed(checkAttrs({}))
             : failed(checkAttrs({"auto_pad", "ceil_mode", "count_include_pad",
                                  "dilations", "kernel_shape", "pads",
                                  "storage_order", "strides"})))
    return failure();
  if (node->output_size() > 1 && !node->output(1).empty())
    return nodeError() << "the Indices output is not supported";
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  if (x->shape.size() != 4)
    return nodeError() << "only 2-D pooling is supported (4-D input)";
  const int64_t n = x->shape[0], c = x->shape[1], h = x->shape[2],
                wd = x->shape[3];
  SmallVector<int64_t> k =
      global ? SmallVector<int64_t>{h, wd} : attrInts("kernel_shape", {});
  if (k.size() != 2 || k[0] < 1 || k[1] < 1)
    return nodeError() << "kernel_shape must have 2 positive values";
  SmallVector<int64_t> strides =
      global ? SmallVector<int64_t>{1, 1} : attrInts("strides", {1, 1});
  SmallVector<int64_t> pads = attrInts("pads", {0, 0, 0, 0});
  if (strides.size() != 2 || pads.size() != 4 ||
      llvm::any_of(strides, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(pads, [](int64_t v) { return v < 0; }))
    return nodeError() << "strides (2 values >= 1) and pads (4 values >= 0) "
                          "are not valid";
  // Bounded so that the window and output arithmetic below cannot overflow.
  auto tooLarge = [](int64_t v) { return v > kMaxElements; };
  if (llvm::any_of(k, tooLarge) || llvm::any_of(strides, tooLarge) ||
      llvm::any_of(pads, tooLarge))
    return nodeError() << "kernel_shape, strides and pads larger than 2^28 "
                          "are not supported";
  if (attrInt("ceil_mode", 0) != 0)
    return nodeError() << "ceil_mode=1 is not supported";
  if (attrInt("storage_order", 0) != 0)
    return nodeError() << "storage_order=1 is not supported";
  if (llvm::any_of(attrInts("dilations", {1, 1}),
                   [](int64_t d) { return d != 1; }))
    return nodeError() << "dilated pooling is not supported";
  std::string autoPad = attrString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID")
    return nodeError() << "auto_pad=" << autoPad
                       << " is not supported (NOTSET with pads, VALID)";
  if (autoPad == "VALID")
    pads = {0, 0, 0, 0};
  bool padded = llvm::any_of(pads, [](int64_t p) { return p != 0; });
  if (!max && padded && attrInt("count_include_pad", 0) == 0)
    return nodeError() << "average pooling with pads and "
                          "count_include_pad=0 is not supported (the "
                          "divisor would vary at the border)";
  const int64_t oh = (h + pads[0] + pads[2] - k[0]) / strides[0] + 1;
  const int64_t ow = (wd + pads[1] + pads[3] - k[1]) / strides[1] + 1;
  if (oh <= 0 || ow <= 0)
    return nodeError() << "the window is larger than the padded input";
  if (!shapeFits({n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]}))
    return nodeError() << "the padded input would hold more than 2^28 "
                          "elements";
  const bool int8 = x->quant != Quant::None;
  Type et = int8 ? i8() : f32();
  Tensor result;
  result.shape = {n, c, oh, ow};
  result.layout = Layout::Nhwc;
  SmallVector<int64_t> outShape = {n, oh, ow, c};
  auto attrs = SmallVector<NamedAttribute>{
      b.getNamedAttr("dilations", b.getI64TensorAttr({1, 1})),
      b.getNamedAttr("strides", b.getI64TensorAttr(strides))};
  Value window = b.create<tensor::EmptyOp>(loc, k, et);
  if (max) {
    double lowest = int8 ? -128.0 : -std::numeric_limits<double>::infinity();
    Value in = pad(toNhwc(*x), {0, pads[0], pads[1], 0},
                   {0, pads[2], pads[3], 0}, lowest);
    Value init = zeroFilled(outShape, et, lowest);
    result.value = b.create<linalg::PoolingNhwcMaxOp>(
                        loc, TypeRange{init.getType()}, ValueRange{in, window},
                        ValueRange{init}, attrs)
                       .getResult(0);
    result.quant = x->quant;
    result.scale = x->scale;
    defineOutput(result);
    return success();
  }
  Value in =
      pad(toNhwc(*x), {0, pads[0], pads[1], 0}, {0, pads[2], pads[3], 0}, 0);
  Value acc = zeroFilled(outShape, int8 ? i32() : f32());
  Value sum = b.create<linalg::PoolingNhwcSumOp>(loc, TypeRange{acc.getType()},
                                                 ValueRange{in, window},
                                                 ValueRange{acc}, attrs)
                  .getResult(0);
  const int64_t count = k[0] * k[1];
  std::string output = node->output(0);
  Location at = loc;
  int64_t mult = 0, shift = 0;
  if (int8) {
    int q = soleConsumer(output);
    if (q < 0 || graph().node(q).op_type() != "QuantizeLinear")
      return nodeError() << "an int8 average pooling must be followed by one "
                            "QuantizeLinear (its output scale)";
    const onnx::NodeProto *self = node;
    int selfIndex = nodeIndex;
    node = &graph().node(q);
    nodeIndex = q;
    loc = nodeLocation(q);
    Const scale;
    LogicalResult ok = quantParams(1, 2, scale, false);
    node = self;
    nodeIndex = selfIndex;
    loc = at;
    if (failed(ok))
      return failure();
    if (!quantMultiplier(x->scale / (count * scale.data[0]), mult, shift))
      return nodeError() << "the pooling's requantisation scale is out of "
                            "range";
    consumed[q] = true;
    at = FusedLoc::get(ctx, {loc, nodeLocation(q)});
    output = graph().node(q).output(0);
    result.quant = Quant::Quantized;
    result.scale = scale.data[0];
  }
  Value empty = b.create<tensor::EmptyOp>(at, outShape, et);
  result.value =
      b.create<linalg::GenericOp>(
           at, TypeRange{empty.getType()}, ValueRange{sum}, ValueRange{empty},
           SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(4)),
           SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
           [&](OpBuilder &nb, Location l, ValueRange args) {
             if (!int8) {
               Value d = nb.create<arith::ConstantOp>(
                   l, nb.getF32FloatAttr(float(count)));
               nb.create<linalg::YieldOp>(
                   l, ValueRange{nb.create<arith::DivFOp>(l, args[0], d)});
               return;
             }
             auto c64 = [&](int64_t v) {
               return nb.create<arith::ConstantOp>(l, nb.getI64IntegerAttr(v));
             };
             Type t64 = nb.getI64Type();
             Value x64 = nb.create<arith::ExtSIOp>(l, t64, args[0]);
             Value m = c64(mult), s = c64(shift);
             Value p = nb.create<arith::MulIOp>(l, x64, m);
             Value one = c64(1);
             Value half0 = nb.create<arith::ShLIOp>(l, one, s);
             Value half = nb.create<arith::ShRSIOp>(l, half0, one);
             Value q = nb.create<arith::AddIOp>(l, p, half);
             Value v0 = nb.create<arith::ShRSIOp>(l, q, s);
             Value v32 = nb.create<arith::TruncIOp>(l, nb.getI32Type(), v0);
             Value v = nb.create<arith::ExtSIOp>(l, t64, v32);
             Value c1 = nb.create<arith::MaxSIOp>(l, v, c64(-128));
             Value c2 = nb.create<arith::MinSIOp>(l, c1, c64(127));
             nb.create<linalg::YieldOp>(
                 l,
                 ValueRange{nb.create<arith::TruncIOp>(l, nb.getI8Type(), c2)});
           })
          .getResult(0);
  define(output, result);
  return success();
}

// --- op handlers ------------------------------------------------------------------

LogicalResult Importer::importConv() {
  if (failed(checkInputs(2, 3)) ||
      failed(checkAttrs({"auto_pad", "dilations", "group", "kernel_shape",
                         "pads", "strides"})))
    return failure();
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  const Const *w = constInput(1);
  if (!w)
    return nodeError() << "the weights (input 1) must be a constant "
                          "(an initializer)";
  const Const *bias = constInput(2);
  if (node->input_size() > 2 && !node->input(2).empty() && !bias)
    return nodeError() << "the bias (input 2) must be a constant";
  const bool int8 = x->quant == Quant::Dequantized;
  if (x->quant == Quant::Quantized)
    return nodeError() << "input 0 is an int8 tensor (QuantizeLinear output) "
                          "without DequantizeLinear";
  if (int8 != w->quantized)
    return nodeError() << (int8 ? "an int8 input needs int8 weights "
                                  "(DequantizeLinear of an int8 initializer)"
                                : "int8 weights need an int8 input "
                                  "(DequantizeLinear before the Conv)");
  if (!int8 && w->type != TensorProto::FLOAT)
    return nodeError() << "type mismatch: weights are " << typeName(w->type)
                       << ", input is float";
  if (int8 && w->scale.size() != 1 && w->axis != 0)
    return nodeError() << "per-axis weight scales must be per output channel "
                          "(axis 0)";
  return convLayer(*x, *w, bias, int8, nullptr, 0);
}

LogicalResult Importer::importGemm() {
  if (failed(checkInputs(2, 3)) ||
      failed(checkAttrs({"alpha", "beta", "transA", "transB"})))
    return failure();
  if (attrInt("transA", 0))
    return nodeError() << "transA=1 is not supported";
  FailureOr<Tensor> a = valueInput(0);
  if (failed(a))
    return failure();
  const Const *bc = constInput(1);
  if (!bc)
    return nodeError() << "B (input 1) must be a constant (an initializer)";
  if (bc->shape.size() != 2)
    return nodeError() << "B must be 2-D";
  Const w = *bc;
  if (attrInt("transB", 0)) {
    w.data = permuteData(w.data, w.shape, {1, 0});
    std::swap(w.shape[0], w.shape[1]);
    w.axis = 1 - w.axis;
  }
  const bool int8 = a->quant == Quant::Dequantized;
  if (int8 != w.quantized)
    return nodeError() << "int8 Gemm needs DequantizeLinear on both A and B";
  if (int8 && w.scale.size() != 1 && w.axis != 1)
    return nodeError() << "per-axis weight scales must be per output column";
  const float alpha = attrFloat("alpha", 1.0f), beta = attrFloat("beta", 1.0f);
  if (alpha != 1.0f) {
    if (int8)
      return nodeError() << "alpha != 1 is not supported in int8";
    for (double &v : w.data)
      v *= alpha;
  }
  const int64_t n = w.shape[1];
  std::vector<double> bias;
  if (const Const *c = constInput(2)) {
    std::vector<double> r = c->real();
    if (c->numel() == 1)
      bias.assign(n, r[0] * beta);
    else if (c->numel() == n && c->shape.back() == n)
      for (double v : r)
        bias.push_back(v * beta);
    else
      return nodeError() << "C must broadcast per output column (" << n
                         << " values)";
  } else if (node->input_size() > 2 && !node->input(2).empty()) {
    return nodeError() << "C (input 2) must be a constant";
  }
  return matmulLayer(*a, std::move(w), std::move(bias), !bias.empty(), int8,
                     nullptr, 0);
}

LogicalResult Importer::importMatMul() {
  if (failed(checkInputs(2, 2)) || failed(checkAttrs({})))
    return failure();
  FailureOr<Tensor> a = valueInput(0);
  if (failed(a))
    return failure();
  const Const *w = constInput(1);
  if (!w)
    return nodeError() << "the second operand must be a constant (weights); "
                          "a product of two computed tensors is not "
                          "supported";
  const bool int8 = a->quant == Quant::Dequantized;
  if (int8 != w->quantized)
    return nodeError() << "int8 MatMul needs DequantizeLinear on both inputs";
  if (int8 && w->scale.size() != 1 && w->axis != 1)
    return nodeError() << "per-axis weight scales must be per output column";
  return matmulLayer(*a, *w, {}, false, int8, nullptr, 0);
}

LogicalResult Importer::importBinary() {
  if (failed(checkInputs(2, 2)) || failed(checkAttrs({})))
    return failure();
  StringRef op = node->op_type();
  return elementwise(
      {0, 1}, [op](OpBuilder &nb, Location l, ArrayRef<Value> v) -> Value {
        if (op == "Add")
          return nb.create<arith::AddFOp>(l, v[0], v[1]);
        if (op == "Sub")
          return nb.create<arith::SubFOp>(l, v[0], v[1]);
        if (op == "Mul")
          return nb.create<arith::MulFOp>(l, v[0], v[1]);
        return nb.create<arith::DivFOp>(l, v[0], v[1]);
      });
}

LogicalResult Importer::importRelu() {
  if (failed(checkInputs(1, 1)) || failed(checkAttrs({})))
    return failure();
  return elementwise({0}, [](OpBuilder &nb, Location l, ArrayRef<Value> v) {
    Value zero = nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(0.0f));
    return nb.create<arith::MaximumFOp>(l, v[0], zero).getResult();
  });
}

LogicalResult Importer::importClip() {
  if (failed(checkInputs(1, 3)) || failed(checkAttrs({})))
    return failure();
  std::optional<double> lo, hi;
  if (!inputName(1).empty()) {
    FailureOr<double> v = scalarConst(1, "min");
    if (failed(v))
      return failure();
    lo = *v;
  }
  if (!inputName(2).empty()) {
    FailureOr<double> v = scalarConst(2, "max");
    if (failed(v))
      return failure();
    hi = *v;
  }
  return elementwise(
      {0}, [lo, hi](OpBuilder &nb, Location l, ArrayRef<Value> v) {
        Value y = v[0];
        if (lo)
          y = nb.create<arith::MaximumFOp>(
              l, y, nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(*lo)));
        if (hi)
          y = nb.create<arith::MinimumFOp>(
              l, y, nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(*hi)));
        return y;
      });
}

LogicalResult Importer::importSigmoid() {
  if (failed(checkInputs(1, 1)) || failed(checkAttrs({})))
    return failure();
  return elementwise({0}, [](OpBuilder &nb, Location l, ArrayRef<Value> v) {
    Value one = nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(1.0f));
    Value zero = nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(0.0f));
    Value e = nb.create<math::ExpOp>(
        l, nb.create<arith::SubFOp>(l, zero, v[0]).getResult());
    Value d = nb.create<arith::AddFOp>(l, one, e);
    return nb.create<arith::DivFOp>(l, one, d).getResult();
  });
}

LogicalResult Importer::reshapeTo(const Tensor &x, ArrayRef<int64_t> to) {
  if (product(to) != product(x.shape))
    return nodeError() << "cannot reshape " << product(x.shape)
                       << " elements into " << product(to);
  Tensor result = x;
  result.shape.assign(to.begin(), to.end());
  // A feature map flattened per batch element: collapse its NHWC value and
  // let the next Gemm/MatMul permute its weight rows.
  if (x.layout == Layout::Nhwc && to.size() == 2 && to[0] == x.shape[0]) {
    result.value = b.create<tensor::CollapseShapeOp>(
        loc,
        tensorType(to,
                   cast<RankedTensorType>(x.value.getType()).getElementType()),
        x.value, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
    result.layout = Layout::FlatNhwc;
    result.c = x.shape[1];
    result.h = x.shape[2];
    result.w = x.shape[3];
  } else {
    result.value = reshaped(toLogical(x), to);
    result.layout = Layout::Logical;
  }
  defineOutput(result);
  return success();
}

LogicalResult Importer::importFlatten() {
  if (failed(checkInputs(1, 1)) || failed(checkAttrs({"axis"})))
    return failure();
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  int64_t axis = attrInt("axis", 1);
  const int64_t rank = x->shape.size();
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return nodeError() << "axis " << attrInt("axis", 1) << " is out of range";
  ArrayRef<int64_t> s = x->shape;
  return reshapeTo(*x,
                   {product(s.take_front(axis)), product(s.drop_front(axis))});
}

LogicalResult Importer::importReshape() {
  if (failed(checkInputs(2, 2)) || failed(checkAttrs({"allowzero"})))
    return failure();
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  const Const *shape = constInput(1);
  if (!shape || shape->type != TensorProto::INT64)
    return nodeError() << "the shape (input 1) must be an int64 constant";
  SmallVector<int64_t> to;
  int64_t infer = -1, known = 1;
  for (auto [i, d] : llvm::enumerate(shape->data)) {
    int64_t v = saturating<int64_t>(d);
    if (v == 0 && !attrInt("allowzero", 0)) {
      if (i >= x->shape.size())
        return nodeError() << "shape entry 0 at " << i << " has no input dim";
      v = x->shape[i];
    }
    if (v == -1) {
      if (infer >= 0)
        return nodeError() << "more than one -1 in the shape";
      infer = i;
      to.push_back(1);
      continue;
    }
    if (v <= 0)
      return nodeError() << "shape entry " << v << " is not supported";
    if (v > kMaxElements / known)
      return nodeError() << "the shape holds more than 2^28 elements";
    known *= v;
    to.push_back(v);
  }
  if (infer >= 0)
    to[infer] = known ? product(x->shape) / known : 0;
  return reshapeTo(*x, to);
}

LogicalResult Importer::importSqueeze() {
  if (failed(checkInputs(1, 2)) || failed(checkAttrs({})))
    return failure();
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  const bool squeeze = node->op_type() == "Squeeze";
  const Const *axesC = constInput(1);
  if (!axesC && (!squeeze || !inputName(1).empty()))
    return nodeError() << "axes (input 1) must be a constant";
  const int64_t outRank =
      x->shape.size() + (squeeze ? 0 : (axesC ? axesC->numel() : 0));
  SmallVector<int64_t> axes;
  if (axesC)
    for (double a : axesC->data) {
      const int64_t given = saturating<int64_t>(a);
      int64_t v = given;
      int64_t r = squeeze ? int64_t(x->shape.size()) : outRank;
      if (v < 0)
        v += r;
      if (v < 0 || v >= r)
        return nodeError() << "axis " << given << " is out of range";
      axes.push_back(v);
    }
  SmallVector<int64_t> to;
  if (squeeze) {
    for (auto [i, d] : llvm::enumerate(x->shape)) {
      bool listed = llvm::is_contained(axes, int64_t(i));
      if (listed && d != 1)
        return nodeError() << "cannot squeeze dimension " << i << " of size "
                           << d;
      if (!(listed || (axes.empty() && d == 1)))
        to.push_back(d);
    }
  } else {
    unsigned next = 0;
    for (int64_t i = 0; i < outRank; ++i)
      to.push_back(llvm::is_contained(axes, i) ? 1 : x->shape[next++]);
  }
  if (to.empty())
    return nodeError() << "a rank-0 result is not supported";
  return reshapeTo(*x, to);
}

LogicalResult Importer::importTranspose() {
  if (failed(checkInputs(1, 1)) || failed(checkAttrs({"perm"})))
    return failure();
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  const int64_t rank = x->shape.size();
  SmallVector<int64_t> dflt;
  for (int64_t i = rank - 1; i >= 0; --i)
    dflt.push_back(i);
  SmallVector<int64_t> perm = attrInts("perm", dflt);
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  for (int64_t i = 0; i < rank; ++i)
    if (perm.size() != size_t(rank) || sorted[i] != i)
      return nodeError() << "perm is not a permutation of the " << rank
                         << " dimensions";
  Tensor result = *x;
  result.value = permuted(toLogical(*x), perm);
  result.shape = permuteShape(x->shape, perm);
  result.layout = Layout::Logical;
  defineOutput(result);
  return success();
}

LogicalResult Importer::importConcat() {
  if (failed(checkInputs(1, 64)) || failed(checkAttrs({"axis"})))
    return failure();
  SmallVector<Tensor> ins;
  for (int i = 0; i < node->input_size(); ++i) {
    FailureOr<Tensor> t = valueInput(i);
    if (failed(t))
      return failure();
    ins.push_back(*t);
  }
  const int64_t rank = ins[0].shape.size();
  int64_t axis = attrInt("axis", 0);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return nodeError() << "axis is out of range";
  bool sameQuant = llvm::all_of(ins, [&](const Tensor &t) {
    return t.quant == ins[0].quant && t.scale == ins[0].scale;
  });
  bool nhwc = rank == 4 && llvm::all_of(ins, [](const Tensor &t) {
                return t.layout == Layout::Nhwc;
              });
  SmallVector<int64_t> shape = ins[0].shape;
  shape[axis] = 0;
  for (const Tensor &t : ins) {
    if (int64_t(t.shape.size()) != rank)
      return nodeError() << "the inputs' ranks differ";
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && t.shape[d] != ins[0].shape[d])
        return nodeError() << "input shapes differ outside axis " << axis;
    shape[axis] += t.shape[axis];
  }
  Layout layout = nhwc ? Layout::Nhwc : Layout::Logical;
  SmallVector<int64_t> phys = nhwc ? permuteShape(shape, kToNhwc) : shape;
  const int64_t physAxis = nhwc ? SmallVector<int64_t>{0, 3, 1, 2}[axis] : axis;
  Type et = sameQuant && ins[0].quant != Quant::None ? i8() : f32();
  Value acc = b.create<tensor::EmptyOp>(loc, phys, et);
  int64_t offset = 0;
  for (const Tensor &t : ins) {
    Value v =
        et == i8() ? (nhwc ? t.value : toLogical(t)) : realValue(t, layout);
    auto vt = cast<RankedTensorType>(v.getType());
    SmallVector<OpFoldResult> offs(rank, b.getIndexAttr(0)), sizes,
        strides(rank, b.getIndexAttr(1));
    offs[physAxis] = b.getIndexAttr(offset);
    for (int64_t d : vt.getShape())
      sizes.push_back(b.getIndexAttr(d));
    acc = b.create<tensor::InsertSliceOp>(loc, v, acc, offs, sizes, strides);
    offset += vt.getDimSize(physAxis);
  }
  Tensor result;
  result.value = acc;
  result.shape = shape;
  result.layout = layout;
  if (et == i8()) {
    result.quant = ins[0].quant;
    result.scale = ins[0].scale;
  }
  defineOutput(result);
  return success();
}

LogicalResult Importer::importPad() {
  if (failed(checkInputs(2, 3)) || failed(checkAttrs({"mode"})))
    return failure();
  if (attrString("mode", "constant") != "constant")
    return nodeError() << "mode=" << attrString("mode", "")
                       << " is not supported (constant)";
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  const Const *pads = constInput(1);
  const int64_t rank = x->shape.size();
  if (!pads || pads->numel() != 2 * rank)
    return nodeError() << "pads (input 1) must be a constant of " << 2 * rank
                       << " values";
  double fill = 0;
  if (!inputName(2).empty()) {
    FailureOr<double> v = scalarConst(2, "constant_value");
    if (failed(v))
      return failure();
    fill = *v;
  }
  SmallVector<int64_t> lo, hi, padded;
  for (int64_t i = 0; i < rank; ++i) {
    lo.push_back(saturating<int64_t>(pads->data[i]));
    hi.push_back(saturating<int64_t>(pads->data[i + rank]));
    if (lo.back() < 0 || hi.back() < 0)
      return nodeError() << "negative pads (cropping) are not supported";
    if (lo.back() > kMaxElements || hi.back() > kMaxElements)
      return nodeError() << "pads larger than 2^28 are not supported";
    padded.push_back(x->shape[i] + lo.back() + hi.back());
  }
  if (!shapeFits(padded))
    return nodeError() << "the padded tensor would hold more than 2^28 "
                          "elements";
  Tensor result = *x;
  if (x->quant != Quant::None && fill != 0)
    result.quant = Quant::None; // an int8 pad value would need its scale
  // Feature maps are padded in NHWC, the layout the convolution reads.
  Layout layout = rank == 4 && x->layout != Layout::FlatNhwc ? Layout::Nhwc
                                                             : Layout::Logical;
  Value v = layout == Layout::Nhwc ? toNhwc(*x) : toLogical(*x);
  if (result.quant == Quant::None && x->quant != Quant::None) {
    Tensor asIs = *x;
    asIs.value = v;
    asIs.layout = Layout::Logical; // v is already in the target layout
    v = realValue(asIs, Layout::Logical);
  }
  if (layout == Layout::Nhwc) {
    lo = permuteShape(lo, kToNhwc);
    hi = permuteShape(hi, kToNhwc);
  }
  // A zero pad whose only reader is a convolution stays a tensor.pad,
  // which npu-fuse-conv folds into the convolution's own padding (ResNet-8's
  // stride-2 convolutions after ZeroPad2d((0, 1, 0, 1))): as a separate
  // fill and copy it cost that network 40 % more cycles.
  const int reader = soleConsumer(node->output(0));
  const bool convReads =
      fill == 0 && reader >= 0 && graph().node(reader).op_type() == "Conv";
  result.value = pad(v, lo, hi, fill, /*convInput=*/convReads);
  result.layout = layout;
  result.shape = padded;
  defineOutput(result);
  return success();
}

// Softmax over the last axis of a 2-D tensor: max, exp(x - max), sum, divide.
LogicalResult Importer::importSoftmax() {
  if (failed(checkInputs(1, 1)) || failed(checkAttrs({"axis"})))
    return failure();
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  const int64_t rank = x->shape.size();
  int64_t axis = attrInt("axis", -1);
  if (axis < 0)
    axis += rank;
  if (rank != 2 || axis != 1)
    return nodeError() << "softmax is supported over the last axis of a 2-D "
                          "tensor (here rank "
                       << rank << ", axis " << attrInt("axis", -1) << ")";
  Value v = realValue(*x, Layout::Logical);
  const int64_t m = x->shape[0];
  AffineMap id = b.getMultiDimIdentityMap(2);
  AffineMap row = AffineMap::get(2, 0, b.getAffineDimExpr(0));
  auto reduce = [&](Value in, double init, bool isMax) {
    Value acc = zeroFilled({m}, f32(), init);
    return b
        .create<linalg::GenericOp>(
            loc, TypeRange{acc.getType()}, ValueRange{in}, ValueRange{acc},
            SmallVector<AffineMap>{id, row},
            SmallVector<utils::IteratorType>{utils::IteratorType::parallel,
                                             utils::IteratorType::reduction},
            [&](OpBuilder &nb, Location l, ValueRange a) {
              Value r =
                  isMax
                      ? nb.create<arith::MaximumFOp>(l, a[0], a[1]).getResult()
                      : nb.create<arith::AddFOp>(l, a[0], a[1]).getResult();
              nb.create<linalg::YieldOp>(l, r);
            })
        .getResult(0);
  };
  auto rowwise = [&](Value in, Value perRow, bool exp) {
    Value empty = b.create<tensor::EmptyOp>(loc, x->shape, f32());
    return b
        .create<linalg::GenericOp>(
            loc, TypeRange{empty.getType()}, ValueRange{in, perRow},
            ValueRange{empty}, SmallVector<AffineMap>{id, row, id},
            SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
            [&](OpBuilder &nb, Location l, ValueRange a) {
              Value r =
                  exp ? nb.create<math::ExpOp>(
                              l, nb.create<arith::SubFOp>(l, a[0], a[1])
                                     .getResult())
                            .getResult()
                      : nb.create<arith::DivFOp>(l, a[0], a[1]).getResult();
              nb.create<linalg::YieldOp>(l, r);
            })
        .getResult(0);
  };
  Value mx = reduce(v, -std::numeric_limits<double>::infinity(), true);
  Value e = rowwise(v, mx, true);
  Value sum = reduce(e, 0.0, false);
  Tensor result;
  result.value = rowwise(e, sum, false);
  result.shape = x->shape;
  defineOutput(result);
  return success();
}

// A BatchNormalization not folded into a Conv/Gemm: y = x * k + c per channel.
LogicalResult Importer::importBatchNorm() {
  if (failed(checkInputs(5, 5)) ||
      failed(checkAttrs({"epsilon", "momentum", "training_mode"})))
    return failure();
  if (attrInt("training_mode", 0))
    return nodeError() << "training_mode=1 is not supported";
  if (node->output_size() > 1)
    return nodeError() << "the running mean/var outputs are not supported";
  const Const *g = constInput(1), *beta = constInput(2), *mean = constInput(3),
              *var = constInput(4);
  if (!g || !beta || !mean || !var)
    return nodeError() << "scale, B, mean and var must be constants";
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  if (x->shape.size() < 2)
    return nodeError() << "the input must have a channel dimension";
  const int64_t c = x->shape[1];
  if (g->numel() != c || beta->numel() != c || mean->numel() != c ||
      var->numel() != c)
    return nodeError() << "scale, B, mean and var must have " << c << " values";
  const double eps = attrFloat("epsilon", 1e-5f);
  SmallVector<int64_t> chShape(x->shape.size(), 1);
  chShape[1] = c;
  Const k, off;
  k.shape = off.shape = chShape;
  for (int64_t i = 0; i < c; ++i) {
    double s = g->data[i] / std::sqrt(var->data[i] + eps);
    k.data.push_back(s);
    off.data.push_back(beta->data[i] - mean->data[i] * s);
  }
  std::string kName = node->output(0) + "@bn.k",
              oName = node->output(0) + "@bn.c";
  consts[kName] = std::move(k);
  consts[oName] = std::move(off);
  onnx::NodeProto *self = model.mutable_graph()->mutable_node(nodeIndex);
  self->set_input(1, kName);
  self->set_input(2, oName);
  return elementwise({0, 1, 2},
                     [](OpBuilder &nb, Location l, ArrayRef<Value> v) {
                       Value y = nb.create<arith::MulFOp>(l, v[0], v[1]);
                       return nb.create<arith::AddFOp>(l, y, v[2]).getResult();
                     });
}

LogicalResult Importer::importQuantize() {
  if (failed(checkInputs(2, 3)) || failed(checkAttrs({"axis"})))
    return failure();
  const Const *c = constInput(0);
  Const scale;
  if (failed(quantParams(1, 2, scale, /*perAxis=*/c != nullptr)))
    return failure();
  if (c) {
    // A weight quantised at run time: quantise it now.
    if (c->type != TensorProto::FLOAT || c->quantized)
      return nodeError() << "input 0 must be float";
    Const q = *c;
    q.quantized = true;
    q.type = TensorProto::INT8;
    q.scale = scale.data;
    q.axis = attrInt("axis", 1);
    if (q.axis < 0)
      q.axis += q.shape.size();
    if (scale.numel() != 1 &&
        (q.axis < 0 || q.axis >= int64_t(q.shape.size()) ||
         q.shape[q.axis] != scale.numel()))
      return nodeError() << "the per-axis scale does not match axis " << q.axis;
    for (auto [i, v] : llvm::enumerate(q.data))
      v = std::clamp(std::nearbyint(c->data[i] / q.scaleAt(i)), -128.0, 127.0);
    consts[node->output(0)] = std::move(q);
    return success();
  }
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  Tensor result = *x;
  const double s = scale.data[0];
  if (x->quant == Quant::Dequantized) {
    if (x->scale != s)
      return nodeError() << "requantising from scale " << x->scale << " to "
                         << s << " is not supported";
    result.quant = Quant::Quantized;
    defineOutput(result);
    return success();
  }
  if (x->quant == Quant::Quantized)
    return nodeError() << "input 0 is already quantised";
  // f32 -> i8: round half to even, saturate (ONNX QuantizeLinear).
  auto type = cast<RankedTensorType>(x->value.getType());
  const unsigned rank = type.getRank();
  Value empty = b.create<tensor::EmptyOp>(loc, type.getShape(), i8());
  result.value =
      b.create<linalg::GenericOp>(
           loc, TypeRange{empty.getType()}, ValueRange{x->value},
           ValueRange{empty},
           SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(rank)),
           SmallVector<utils::IteratorType>(rank,
                                            utils::IteratorType::parallel),
           [&](OpBuilder &nb, Location l, ValueRange a) {
             auto f = [&](double v) {
               return nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(v));
             };
             Value y = nb.create<arith::DivFOp>(l, a[0], f(s));
             y = nb.create<math::RoundEvenOp>(l, y);
             y = nb.create<arith::MaximumFOp>(l, y, f(-128));
             y = nb.create<arith::MinimumFOp>(l, y, f(127));
             nb.create<linalg::YieldOp>(
                 l,
                 ValueRange{nb.create<arith::FPToSIOp>(l, nb.getI8Type(), y)});
           })
          .getResult(0);
  result.quant = Quant::Quantized;
  result.scale = s;
  defineOutput(result);
  return success();
}

LogicalResult Importer::importDequantize() {
  if (failed(checkInputs(2, 3)) || failed(checkAttrs({"axis"})))
    return failure();
  const Const *c = constInput(0);
  Const scale;
  if (failed(quantParams(1, 2, scale, /*perAxis=*/c != nullptr)))
    return failure();
  if (c) {
    if (c->type != TensorProto::INT8)
      return nodeError() << "input 0 is " << typeName(c->type)
                         << " (supported: int8)";
    Const q = *c;
    if (!q.quantized) {
      q.quantized = true;
      q.scale = scale.data;
      q.axis = attrInt("axis", 1);
      if (q.axis < 0)
        q.axis += q.shape.size();
      if (scale.numel() != 1 &&
          (q.axis < 0 || q.axis >= int64_t(q.shape.size()) ||
           q.shape[q.axis] != scale.numel()))
        return nodeError() << "the per-axis scale does not match axis "
                           << q.axis;
    } else if (q.scale != scale.data) {
      return nodeError() << "DequantizeLinear's scale differs from its "
                            "QuantizeLinear's";
    }
    consts[node->output(0)] = std::move(q);
    return success();
  }
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  if (x->quant != Quant::Quantized)
    return nodeError() << "input 0 is not an int8 tensor (QuantizeLinear "
                          "output)";
  if (x->scale != scale.data[0])
    return nodeError() << "the scale " << scale.data[0]
                       << " differs from the tensor's quantisation scale "
                       << x->scale;
  Tensor result = *x;
  result.quant = Quant::Dequantized;
  defineOutput(result);
  return success();
}

// What QLinearConv and QLinearMatMul share: inputs 0-7 are x, x_scale,
// x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point. The int8
// input must come from a QuantizeLinear/QLinear op with x_scale, w must be an
// int8 constant (per-channel scales along `wAxis`); returns the input as a
// dequantized tensor, w with its scales, and y_scale.
FailureOr<Importer::QLinearOperands> Importer::qlinearOperands(StringRef xName,
                                                               StringRef wName,
                                                               unsigned wRank,
                                                               int64_t wAxis) {
  Const xs, ws, ys;
  if (failed(quantParams(1, 2, xs, false)) ||
      failed(quantParams(4, 5, ws, true)) ||
      failed(quantParams(6, 7, ys, false)))
    return failure();
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  if (x->quant != Quant::Quantized || x->scale != xs.data[0])
    return nodeError() << "input 0 must be the int8 output of a "
                          "QuantizeLinear or QLinear op with "
                       << xName << "_scale";
  const Const *w = constInput(3);
  if (!w || w->type != TensorProto::INT8 || (wRank && w->shape.size() != wRank))
    return nodeError() << wName << " (input 3) must be a "
                       << (wRank ? std::to_string(wRank) + "-D " : "")
                       << "int8 constant";
  QLinearOperands q{*x, *w, ys.data[0]};
  q.input.quant = Quant::Dequantized;
  q.weight.quantized = true;
  q.weight.scale = ws.data;
  q.weight.axis = wAxis;
  return q;
}

LogicalResult Importer::importQLinearConv() {
  if (failed(checkInputs(8, 9)) ||
      failed(checkAttrs({"auto_pad", "dilations", "group", "kernel_shape",
                         "pads", "strides"})))
    return failure();
  FailureOr<QLinearOperands> q = qlinearOperands("x", "w", 0, 0);
  if (failed(q))
    return failure();
  const Const *bias = constInput(8);
  if (!inputName(8).empty() && (!bias || bias->type != TensorProto::INT32))
    return nodeError() << "B (input 8) must be an int32 constant";
  Const zero;
  zero.shape = {q->weight.shape[0]};
  zero.data.assign(q->weight.shape[0], 0.0);
  return convLayer(q->input, q->weight, nullptr, true, bias ? bias : &zero,
                   q->yScale);
}

LogicalResult Importer::importQLinearMatMul() {
  if (failed(checkInputs(8, 8)) || failed(checkAttrs({})))
    return failure();
  FailureOr<QLinearOperands> q = qlinearOperands("a", "b", 2, 1);
  if (failed(q))
    return failure();
  Const zero;
  zero.shape = {q->weight.shape[1]};
  zero.data.assign(q->weight.shape[1], 0.0);
  return matmulLayer(q->input, q->weight, {}, true, true, &zero, q->yScale);
}

LogicalResult Importer::importConstant() {
  if (failed(checkInputs(0, 0)))
    return failure();
  Const c;
  if (const onnx::AttributeProto *v = attr("value")) {
    if (failed(readTensor(v->t(), c, false)))
      return failure();
  } else if (const onnx::AttributeProto *f = attr("value_float")) {
    c.data = {f->f()};
  } else if (const onnx::AttributeProto *i = attr("value_int")) {
    c.type = TensorProto::INT64;
    c.data = {double(i->i())};
  } else if (const onnx::AttributeProto *is = attr("value_ints")) {
    c.type = TensorProto::INT64;
    c.shape = {is->ints_size()};
    for (int64_t v : is->ints())
      c.data.push_back(double(v));
  } else if (const onnx::AttributeProto *fs = attr("value_floats")) {
    c.shape = {fs->floats_size()};
    for (float v : fs->floats())
      c.data.push_back(v);
  } else {
    return nodeError() << "only value, value_float(s) and value_int(s) are "
                          "supported";
  }
  consts[node->output(0)] = std::move(c);
  return success();
}

LogicalResult Importer::importIdentity() {
  if (failed(checkInputs(1, 3)) || failed(checkAttrs({"seed"})))
    return failure();
  if (node->op_type() == "Dropout" && node->output_size() > 1 &&
      !node->output(1).empty())
    return nodeError() << "the mask output is not supported";
  if (const Const *c = constInput(0)) {
    consts[node->output(0)] = *c;
    return success();
  }
  FailureOr<Tensor> x = valueInput(0);
  if (failed(x))
    return failure();
  defineOutput(*x);
  return success();
}

LogicalResult Importer::importCast() {
  if (failed(checkInputs(1, 1)) || failed(checkAttrs({"to", "saturate"})))
    return failure();
  const Const *c = constInput(0);
  if (!c)
    return nodeError() << "Cast of a computed tensor is not supported (only "
                          "of constants)";
  Const r = *c;
  r.type = int32_t(attrInt("to", TensorProto::FLOAT));
  switch (r.type) {
  case TensorProto::FLOAT:
  case TensorProto::DOUBLE:
    break;
  case TensorProto::INT8:
  case TensorProto::INT32:
  case TensorProto::INT64:
  case TensorProto::UINT8:
    for (double &v : r.data)
      v = std::trunc(v);
    break;
  default:
    return nodeError() << "Cast to " << typeName(r.type) << " is not supported";
  }
  consts[node->output(0)] = std::move(r);
  return success();
}

// Nodes whose inputs are all constants (exporters compute pads and shapes
// in small subgraphs: ConstantOfShape, Slice, Concat, ...) are evaluated at
// import; `folded` is false when the node is not one of these.
LogicalResult Importer::foldConstantNode(bool &folded) {
  folded = false;
  StringRef op = node->op_type();
  if (!llvm::is_contained(kShapeOps, op) && op != "Concat" && op != "Reshape" &&
      op != "Transpose" && op != "Squeeze" && op != "Unsqueeze")
    return success();
  if (op == "Shape" && node->input_size() == 1 &&
      values.count(node->input(0))) {
    Const r;
    r.type = TensorProto::INT64;
    for (int64_t d : values[node->input(0)].shape)
      r.data.push_back(double(d));
    r.shape = {int64_t(r.data.size())};
    if (!node->attribute().empty())
      return nodeError() << "start/end attributes are not supported";
    consts[node->output(0)] = std::move(r);
    folded = true;
    return success();
  }
  SmallVector<const Const *> in;
  for (int i = 0; i < node->input_size(); ++i) {
    if (node->input(i).empty()) {
      in.push_back(nullptr);
      continue;
    }
    const Const *c = constInput(i);
    if (!c)
      return success();
    in.push_back(c);
  }
  if (node->input_size() == 0 || !in[0])
    return success();
  const Const &x = *in[0];
  auto ints = [](const Const *c) {
    SmallVector<int64_t> v;
    if (c)
      for (double d : c->data)
        v.push_back(saturating<int64_t>(d));
    return v;
  };
  auto norm = [](int64_t a, int64_t rank) { return a < 0 ? a + rank : a; };
  auto inRange = [&](ArrayRef<int64_t> axes, int64_t rank) {
    return llvm::all_of(axes, [&](int64_t a) {
      return norm(a, rank) >= 0 && norm(a, rank) < rank;
    });
  };
  Const r;
  r.type = x.type;
  if (op == "ConstantOfShape") {
    r.shape = ints(&x);
    if (!shapeFits(r.shape))
      return nodeError() << "the shape must have non-negative dimensions and "
                            "at most 2^28 elements";
    r.type = TensorProto::FLOAT;
    double v = 0;
    if (const onnx::AttributeProto *a = attr("value")) {
      Const value;
      if (failed(readTensor(a->t(), value, false)))
        return failure();
      if (value.numel() != 1)
        return nodeError() << "value must hold one element";
      r.type = value.type;
      v = value.data[0];
    }
    r.data.assign(r.numel(), v);
  } else if (op == "Shape") {
    r.type = TensorProto::INT64;
    r.shape = {int64_t(x.shape.size())};
    for (int64_t d : x.shape)
      r.data.push_back(double(d));
  } else if (op == "Concat") {
    const int64_t rank = x.shape.size();
    const int64_t axis = norm(attrInt("axis", 0), rank);
    if (axis < 0 || axis >= rank)
      return nodeError() << "axis is out of range";
    r.shape = x.shape;
    r.shape[axis] = 0;
    for (const Const *c : in) {
      if (!c || c->shape.size() != x.shape.size())
        return nodeError() << "the inputs' ranks differ";
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis && c->shape[d] != x.shape[d])
          return nodeError() << "input shapes differ outside axis " << axis;
      r.shape[axis] += c->shape[axis];
    }
    const int64_t outer = product(ArrayRef<int64_t>(x.shape).take_front(axis));
    for (int64_t o = 0; o < outer; ++o)
      for (const Const *c : in) {
        int64_t inner = product(ArrayRef<int64_t>(c->shape).drop_front(axis));
        r.data.insert(r.data.end(), c->data.begin() + o * inner,
                      c->data.begin() + (o + 1) * inner);
      }
  } else if (op == "Reshape" || op == "Squeeze" || op == "Unsqueeze") {
    // The same data under the shape the value handlers compute.
    r = x;
    if (op == "Reshape") {
      if (in.size() < 2 || !in[1])
        return nodeError() << "the shape (input 1) is missing";
      SmallVector<int64_t> to = ints(in[1]);
      int64_t known = 1, infer = -1;
      for (auto [i, d] : llvm::enumerate(to)) {
        if (d == 0 && i < x.shape.size())
          d = x.shape[i];
        if (d < -1 || d == 0 || (d == -1 && infer >= 0))
          return nodeError() << "shape entry " << d << " is not supported";
        if (d == -1)
          infer = i;
        else if (d > kMaxElements / known)
          return nodeError() << "the shape is too large";
        else
          known *= d;
      }
      if (infer >= 0)
        to[infer] = x.numel() / std::max<int64_t>(known, 1);
      if (!shapeFits(to))
        return nodeError() << "the shape is too large";
      r.shape = to;
    } else {
      SmallVector<int64_t> axes = ints(in.size() > 1 ? in[1] : nullptr);
      const int64_t rank = x.shape.size() + (op == "Squeeze" ? 0 : axes.size());
      SmallVector<int64_t> sorted;
      for (int64_t a : axes)
        sorted.push_back(norm(a, rank));
      llvm::sort(sorted);
      if (!inRange(axes, rank) ||
          std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        return nodeError() << "axes are out of range or repeated";
      if (op == "Squeeze") {
        r.shape.clear();
        for (auto [i, d] : llvm::enumerate(x.shape))
          if (!(llvm::is_contained(axes, int64_t(i)) ||
                llvm::is_contained(axes,
                                   int64_t(i) - int64_t(x.shape.size())) ||
                (axes.empty() && d == 1)))
            r.shape.push_back(d);
      } else {
        r.shape.clear();
        unsigned next = 0;
        for (int64_t i = 0; i < rank; ++i)
          r.shape.push_back(llvm::is_contained(axes, i) ||
                                    llvm::is_contained(axes, i - rank)
                                ? 1
                                : x.shape[next++]);
      }
    }
    if (r.numel() != x.numel())
      return nodeError() << "reshaping a constant of " << x.numel()
                         << " elements to " << r.numel();
  } else if (op == "Transpose") {
    SmallVector<int64_t> perm;
    for (int64_t i = x.shape.size() - 1; i >= 0; --i)
      perm.push_back(i);
    perm = attrInts("perm", perm);
    SmallVector<int64_t> sortedPerm(perm);
    llvm::sort(sortedPerm);
    bool isPermutation = perm.size() == x.shape.size();
    for (size_t i = 0; isPermutation && i < sortedPerm.size(); ++i)
      isPermutation = sortedPerm[i] == int64_t(i);
    if (!isPermutation)
      return nodeError() << "perm is not a permutation of the dimensions";
    r.shape = permuteShape(x.shape, perm);
    r.data = permuteData(x.data, x.shape, perm);
    // A quantised weight stays one (Linear(bias=False) exports its
    // DequantizeLinear'd weight through a Transpose before the MatMul):
    // its scales move with their axis.
    if (x.quantized) {
      r.quantized = true;
      r.scale = x.scale;
      r.axis = llvm::find(perm, x.axis) - perm.begin();
    }
  } else if (op == "Slice") {
    const int64_t rank = x.shape.size();
    if (in.size() < 3 || !in[1] || !in[2])
      return nodeError() << "starts and ends (inputs 1, 2) are required";
    SmallVector<int64_t> starts = ints(in[1]), ends = ints(in[2]),
                         axes = ints(in.size() > 3 ? in[3] : nullptr),
                         steps = ints(in.size() > 4 ? in[4] : nullptr);
    if (axes.empty())
      for (size_t i = 0; i < starts.size(); ++i)
        axes.push_back(i);
    if (steps.empty())
      steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() ||
        steps.size() != starts.size() || !inRange(axes, rank))
      return nodeError() << "starts, ends, axes and steps do not match";
    SmallVector<int64_t> start(rank, 0), step(rank, 1);
    r.shape = x.shape;
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t a = norm(axes[i], rank), d = x.shape[a], st = steps[i];
      if (st == 0)
        return nodeError() << "step 0";
      // A step of d or more takes the first element only, as d does; the
      // clamp keeps the arithmetic below from overflowing on INT64_MIN/MAX.
      st = std::clamp<int64_t>(st, -std::max<int64_t>(d, 1),
                               std::max<int64_t>(d, 1));
      int64_t b0 = starts[i] < 0 ? starts[i] + d : starts[i];
      int64_t e0 = ends[i] < 0 ? ends[i] + d : ends[i];
      if (st > 0) {
        b0 = std::clamp<int64_t>(b0, 0, d);
        e0 = std::clamp<int64_t>(e0, 0, d);
        r.shape[a] = std::max<int64_t>(0, (e0 - b0 + st - 1) / st);
      } else {
        b0 = std::clamp<int64_t>(b0, -1, d - 1);
        e0 = std::clamp<int64_t>(e0, -1, d - 1);
        r.shape[a] = std::max<int64_t>(0, (b0 - e0 - st - 1) / -st);
      }
      start[a] = b0;
      step[a] = st;
    }
    SmallVector<int64_t> stride(rank, 1), idx(rank, 0);
    for (int64_t i = rank - 2; i >= 0; --i)
      stride[i] = stride[i + 1] * x.shape[i + 1];
    for (int64_t flat = 0, n = r.numel(); flat < n; ++flat) {
      int64_t src = 0;
      for (int64_t d = 0; d < rank; ++d)
        src += (start[d] + idx[d] * step[d]) * stride[d];
      r.data.push_back(x.data[src]);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++idx[d] < r.shape[d])
          break;
        idx[d] = 0;
      }
    }
  } else {
    return success(); // Cast and Identity fold in their handlers
  }
  // The other folds compute on `data`, the integers of a quantised
  // constant, and would lose its scales (Shape reads its shape only).
  if (!r.quantized && op != "Shape" && llvm::any_of(in, [](const Const *c) {
        return c && c->quantized;
      }))
    return nodeError() << "a constant from DequantizeLinear (quantised "
                          "weights) is supported through Transpose only";
  consts[node->output(0)] = std::move(r);
  folded = true;
  return success();
}

// --- the graph ---------------------------------------------------------------------

OwningOpRef<ModuleOp> Importer::run() {
  if (failed(readModel()))
    return nullptr;
  for (const TensorProto &t : graph().initializer()) {
    Const c;
    if (failed(readTensor(t, c, true)))
      return nullptr;
    consts[t.name()] = std::move(c);
  }
  // Every node's domain and outputs before any node is read: fusing an
  // epilogue (a MatMul's bias Add, a Conv's Relu) and folding (Constant,
  // BatchNormalization) look at later nodes by their op type, and took a
  // 'my.custom' or 'com.microsoft' Add or Relu for the standard one.
  llvm::StringMap<int> producer;
  for (nodeIndex = 0; nodeIndex < graph().node_size(); ++nodeIndex) {
    node = &graph().node(nodeIndex);
    loc = nodeLocation(nodeIndex);
    if (!node->domain().empty() && node->domain() != "ai.onnx") {
      nodeError() << "op domain '" << node->domain()
                  << "' is not supported (the default ONNX domain only)";
      return nullptr;
    }
    // A second producer of a name would silently replace the first's value
    // for the nodes after it.
    for (const std::string &out : node->output()) {
      if (out.empty())
        continue;
      auto [it, fresh] = producer.try_emplace(out, nodeIndex);
      if (!fresh) {
        nodeError() << "output '" << out << "' is also the output of node '"
                    << nodeName(it->second)
                    << "' (ONNX names each value once)";
        return nullptr;
      }
    }
  }
  loc = fileLoc;
  node = nullptr;
  for (const onnx::ValueInfoProto &o : graph().output())
    graphOutputs.insert(o.name());
  for (int i = 0; i < graph().node_size(); ++i)
    for (const std::string &in : graph().node(i).input())
      if (!in.empty())
        consumers[in].push_back(i);
  consumed.assign(graph().node_size(), false);
  // Constant nodes depend on nothing: read them first, so the graph input's
  // QuantizeLinear and BatchNormalization folding see their values.
  for (nodeIndex = 0; nodeIndex < graph().node_size(); ++nodeIndex) {
    node = &graph().node(nodeIndex);
    if (node->op_type() != "Constant")
      continue;
    loc = nodeLocation(nodeIndex);
    if (failed(importConstant()))
      return nullptr;
    consumed[nodeIndex] = true;
  }
  if (failed(foldBatchNorms()))
    return nullptr;

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  std::string name = llvm::sys::path::stem(path).str();
  for (char &ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
    name = "net_" + name;
  b.setInsertionPointToEnd(module->getBody());
  auto func = b.create<func::FuncOp>(
      NameLoc::get(StringAttr::get(
                       ctx, graph().name().empty() ? "graph" : graph().name()),
                   fileLoc),
      name, b.getFunctionType({}, {}));
  b.setInsertionPointToStart(func.addEntryBlock());
  SmallVector<Type> argTypes;
  if (failed(readInputs(argTypes)))
    return nullptr;

  for (nodeIndex = 0; nodeIndex < graph().node_size(); ++nodeIndex) {
    if (consumed[nodeIndex])
      continue;
    node = &graph().node(nodeIndex);
    loc = nodeLocation(nodeIndex);
    if (node->output_size() < 1 || node->output(0).empty()) {
      nodeError() << "has no output";
      return nullptr;
    }
    Handler handler = nullptr;
    for (const auto &[op, h] : kHandlers)
      if (node->op_type() == op)
        handler = h;
    if (!handler && llvm::is_contained(kShapeOps, node->op_type())) {
      bool folded;
      if (failed(foldConstantNode(folded)))
        return nullptr;
      if (folded)
        continue;
      nodeError() << "supported on constants only (the shape computations "
                     "exporters write); here an input is computed";
      return nullptr;
    }
    if (!handler) {
      std::string list;
      for (const auto &entry : kHandlers)
        list += (list.empty() ? "" : ", ") + std::string(entry.first);
      nodeError() << "not an op npuc imports (supported: " << list
                  << "; on constants: ConstantOfShape, Shape, Slice)";
      return nullptr;
    }
    bool folded;
    if (failed(foldConstantNode(folded)))
      return nullptr;
    if (!folded && failed((this->*handler)()))
      return nullptr;
  }

  loc = fileLoc;
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  for (const onnx::ValueInfoProto &o : graph().output()) {
    auto it = values.find(o.name());
    if (it == values.end()) {
      fileError() << "graph output '" << o.name()
                  << "' is not computed by the graph (a constant or missing)";
      return nullptr;
    }
    // A DequantizeLinear at the end: the network returns the int8 values.
    results.push_back(toLogical(it->second));
    resultTypes.push_back(results.back().getType());
  }
  if (results.empty()) {
    fileError() << "the graph has no output";
    return nullptr;
  }
  b.create<func::ReturnOp>(fileLoc, results);
  func.setType(b.getFunctionType(argTypes, resultTypes));
  return module;
}

} // namespace

bool mlir::npu::isOnnxFile(StringRef path) {
  return llvm::sys::path::extension(path).equals_insensitive(".onnx");
}

OwningOpRef<ModuleOp>
mlir::npu::importOnnxFile(StringRef path, MLIRContext *context,
                          const OnnxImportOptions &options) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  Importer importer(context, path, options);
  return importer.run();
}
