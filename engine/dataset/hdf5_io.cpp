#include "engine/dataset/hdf5_io.h"

#include <numeric>

#include "engine/common/error.h"

namespace stiction::hdf5 {
namespace {

std::string Where(const Location& at, const std::string& name) {
  return at.where + (at.where.empty() || at.where.back() == '/' ? "" : "/") + name;
}

[[noreturn]] void Fail(const Location& at, const std::string& name, const std::string& reason) {
  throw InputError(Where(at, name) + ": " + reason);
}

Id Check(hid_t id, Id::Closer close, const Location& at, const std::string& name, const std::string& doing) {
  if (id < 0) Fail(at, name, doing);
  return Id(id, close);
}

void CheckStatus(herr_t status, const Location& at, const std::string& name, const std::string& doing) {
  if (status < 0) Fail(at, name, doing);
}

Id Space(const std::vector<hsize_t>& shape, const Location& at, const std::string& name) {
  return Check(H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr), H5Sclose, at, name,
               "cannot make its dataspace");
}

hsize_t Count(const std::vector<hsize_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), hsize_t{1}, std::multiplies<>());
}

Id Utf8StringType(const Location& at, const std::string& name) {
  Id type = Check(H5Tcopy(H5T_C_S1), H5Tclose, at, name, "cannot make a string type");
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  return type;
}

void WriteAttributeData(const Location& object, const std::string& name, hid_t file_type, hid_t memory_type,
                        hid_t space, const void* data) {
  if (H5Aexists(object.id, name.c_str()) > 0) H5Adelete(object.id, name.c_str());
  Id attr = Check(H5Acreate2(object.id, name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                  object, name, "cannot create the attribute (is the file writable, the disk not full?)");
  if (H5Sget_simple_extent_npoints(space) == 0) return;  // An empty list.
  CheckStatus(H5Awrite(attr.get(), memory_type, data), object, name, "cannot write the attribute");
}

Id OpenAttribute(const Location& object, const std::string& name) {
  if (H5Aexists(object.id, name.c_str()) <= 0) Fail(object, name, "missing attribute");
  return Check(H5Aopen(object.id, name.c_str(), H5P_DEFAULT), H5Aclose, object, name, "cannot open the attribute");
}

Id OpenDataset(const Location& parent, const std::string& name) {
  if (!HasLink(parent, name)) Fail(parent, name, "missing dataset");
  return Check(H5Dopen2(parent.id, name.c_str(), H5P_DEFAULT), H5Dclose, parent, name,
               "cannot open it as a dataset");
}

// Reads a dataset of `cls` into `out` (resized); `memory_type` its element type.
template <typename T>
std::vector<T> ReadAll(const Location& parent, const std::string& name, H5T_class_t cls, hid_t memory_type,
                       const char* kind) {
  Id dset = OpenDataset(parent, name);
  Id type = Check(H5Dget_type(dset.get()), H5Tclose, parent, name, "cannot read its type");
  if (H5Tget_class(type.get()) != cls) Fail(parent, name, std::string("expected ") + kind);
  Id space = Check(H5Dget_space(dset.get()), H5Sclose, parent, name, "cannot read its shape");
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0) Fail(parent, name, "cannot read its shape");
  std::vector<T> out(static_cast<std::size_t>(n));
  if (n > 0) {
    CheckStatus(H5Dread(dset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), parent, name,
                "cannot read its values (the file is truncated or corrupt)");
  }
  return out;
}

// The attribute's type and element count, checked to be of class `cls`.
std::pair<Id, hssize_t> AttributeTypeAndCount(const Id& attr, const Location& object, const std::string& name,
                                              H5T_class_t cls, const char* kind) {
  Id type = Check(H5Aget_type(attr.get()), H5Tclose, object, name, "cannot read its type");
  if (H5Tget_class(type.get()) != cls) Fail(object, name, std::string("expected ") + kind);
  Id space = Check(H5Aget_space(attr.get()), H5Sclose, object, name, "cannot read its shape");
  return {std::move(type), H5Sget_simple_extent_npoints(space.get())};
}

std::vector<std::string> ReadStrings(const Location& object, const std::string& name) {
  Id attr = OpenAttribute(object, name);
  auto [type, n] = AttributeTypeAndCount(attr, object, name, H5T_STRING, "a string");
  std::vector<std::string> out;
  if (n <= 0) return out;
  if (H5Tis_variable_str(type.get()) > 0) {
    Id memory = Utf8StringType(object, name);
    std::vector<char*> p(static_cast<std::size_t>(n), nullptr);
    CheckStatus(H5Aread(attr.get(), memory.get(), p.data()), object, name, "cannot read the attribute");
    for (char* s : p) {
      out.emplace_back(s != nullptr ? s : "");
      H5free_memory(s);
    }
    return out;
  }
  const std::size_t size = H5Tget_size(type.get());
  std::vector<char> buffer(size * static_cast<std::size_t>(n) + 1, '\0');
  CheckStatus(H5Aread(attr.get(), type.get(), buffer.data()), object, name, "cannot read the attribute");
  for (hssize_t i = 0; i < n; ++i) {
    const char* s = buffer.data() + static_cast<std::size_t>(i) * size;
    out.emplace_back(s, strnlen(s, size));
  }
  return out;
}

}  // namespace

Id& Id::operator=(Id&& o) noexcept {
  if (this != &o) {
    Reset();
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = H5I_INVALID_HID;
  }
  return *this;
}

void Id::Reset() {
  if (id_ >= 0 && close_ != nullptr) close_(id_);
  id_ = H5I_INVALID_HID;
}

void Quiet() {
  static const bool quiet = [] { return H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0; }();
  (void)quiet;
}

Id CreateGroup(const Location& parent, const std::string& name) {
  return Check(H5Gcreate2(parent.id, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, parent, name,
               "cannot create the group (is the file writable, the disk not full?)");
}

void WriteDoubles(const Location& parent, const std::string& name, const std::vector<hsize_t>& shape,
                  const double* values) {
  Id space = Space(shape, parent, name);
  Id dset = Check(H5Dcreate2(parent.id, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT),
                  H5Dclose, parent, name, "cannot create the dataset (is the disk full?)");
  if (Count(shape) == 0) return;
  CheckStatus(H5Dwrite(dset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), parent, name,
              "cannot write the dataset (is the disk full?)");
}

void WriteBytes(const Location& parent, const std::string& name, const std::vector<hsize_t>& shape,
                const std::uint8_t* values) {
  Id space = Space(shape, parent, name);
  Id properties = Check(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, parent, name, "cannot make its properties");
  if (Count(shape) > 0) {
    std::vector<hsize_t> chunk = shape;
    chunk[0] = 1;  // One image per chunk, as robomimic's readers fetch them.
    H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data());
    H5Pset_deflate(properties.get(), 4);
  }
  Id dset = Check(H5Dcreate2(parent.id, name.c_str(), H5T_STD_U8LE, space.get(), H5P_DEFAULT, properties.get(),
                             H5P_DEFAULT),
                  H5Dclose, parent, name, "cannot create the dataset (is the disk full?)");
  if (Count(shape) == 0) return;
  CheckStatus(H5Dwrite(dset.get(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), parent, name,
              "cannot write the dataset (is the disk full?)");
}

void WriteAttribute(const Location& object, const std::string& name, const std::string& value) {
  Id type = Utf8StringType(object, name);
  Id space = Check(H5Screate(H5S_SCALAR), H5Sclose, object, name, "cannot make its dataspace");
  const char* p = value.c_str();
  WriteAttributeData(object, name, type.get(), type.get(), space.get(), &p);
}

void WriteAttribute(const Location& object, const std::string& name, std::int64_t value) {
  Id space = Check(H5Screate(H5S_SCALAR), H5Sclose, object, name, "cannot make its dataspace");
  WriteAttributeData(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, space.get(), &value);
}

void WriteAttribute(const Location& object, const std::string& name, double value) {
  Id space = Check(H5Screate(H5S_SCALAR), H5Sclose, object, name, "cannot make its dataspace");
  WriteAttributeData(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, space.get(), &value);
}

void WriteAttribute(const Location& object, const std::string& name, const std::vector<std::string>& value) {
  Id type = Utf8StringType(object, name);
  Id space = Space({value.size()}, object, name);
  std::vector<const char*> p;
  for (const std::string& s : value) p.push_back(s.c_str());
  WriteAttributeData(object, name, type.get(), type.get(), space.get(), p.data());
}

void WriteAttribute(const Location& object, const std::string& name, const std::vector<double>& value) {
  Id space = Space({value.size()}, object, name);
  WriteAttributeData(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, space.get(), value.data());
}

bool HasLink(const Location& parent, const std::string& name) {
  return H5Lexists(parent.id, name.c_str(), H5P_DEFAULT) > 0;
}

Id OpenGroup(const Location& parent, const std::string& name) {
  if (!HasLink(parent, name)) Fail(parent, name, "missing group");
  return Check(H5Gopen2(parent.id, name.c_str(), H5P_DEFAULT), H5Gclose, parent, name, "cannot open it as a group");
}

std::vector<hsize_t> DatasetShape(const Location& parent, const std::string& name) {
  Id dset = OpenDataset(parent, name);
  Id space = Check(H5Dget_space(dset.get()), H5Sclose, parent, name, "cannot read its shape");
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) Fail(parent, name, "cannot read its shape");
  std::vector<hsize_t> shape(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), shape.data(), nullptr);
  return shape;
}

std::vector<double> ReadDoubles(const Location& parent, const std::string& name) {
  return ReadAll<double>(parent, name, H5T_FLOAT, H5T_NATIVE_DOUBLE, "floating-point numbers");
}

std::vector<std::uint8_t> ReadBytes(const Location& parent, const std::string& name) {
  return ReadAll<std::uint8_t>(parent, name, H5T_INTEGER, H5T_NATIVE_UINT8, "bytes");
}

bool HasAttribute(const Location& object, const std::string& name) {
  return H5Aexists(object.id, name.c_str()) > 0;
}

std::string ReadStringAttribute(const Location& object, const std::string& name) {
  std::vector<std::string> s = ReadStrings(object, name);
  if (s.size() != 1) Fail(object, name, "expected one string");
  return s.front();
}

std::vector<std::string> ReadStringListAttribute(const Location& object, const std::string& name) {
  return ReadStrings(object, name);
}

std::int64_t ReadIntAttribute(const Location& object, const std::string& name) {
  Id attr = OpenAttribute(object, name);
  auto [type, n] = AttributeTypeAndCount(attr, object, name, H5T_INTEGER, "an integer");
  if (n != 1) Fail(object, name, "expected one integer");
  std::int64_t value = 0;
  CheckStatus(H5Aread(attr.get(), H5T_NATIVE_INT64, &value), object, name, "cannot read the attribute");
  return value;
}

double ReadDoubleAttribute(const Location& object, const std::string& name) {
  std::vector<double> v = ReadDoubleListAttribute(object, name);
  if (v.size() != 1) Fail(object, name, "expected one number");
  return v.front();
}

std::vector<double> ReadDoubleListAttribute(const Location& object, const std::string& name) {
  Id attr = OpenAttribute(object, name);
  auto [type, n] = AttributeTypeAndCount(attr, object, name, H5T_FLOAT, "numbers");
  std::vector<double> v(static_cast<std::size_t>(std::max<hssize_t>(n, 0)));
  if (!v.empty()) {
    CheckStatus(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, v.data()), object, name, "cannot read the attribute");
  }
  return v;
}

std::vector<std::string> LinkNames(const Location& group) {
  std::vector<std::string> names;
  auto collect = [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
  };
  hsize_t index = 0;
  CheckStatus(H5Literate(group.id, H5_INDEX_NAME, H5_ITER_INC, &index, collect, &names), group, "",
              "cannot list the group (the file is truncated or corrupt)");
  return names;
}

}  // namespace stiction::hdf5
