#pragma once
// A thin layer over libhdf5's C API for the demonstration files
// (demo_file.h): owned ids, and datasets and attributes of the kinds they
// hold (doubles, bytes, integers, UTF-8 strings and string lists). Every
// failure is an InputError naming the file and the object; HDF5's own
// error stack is not printed.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace stiction::hdf5 {

/// An HDF5 id, closed with its kind's close function when it goes.
class Id {
 public:
  using Closer = herr_t (*)(hid_t);
  Id() = default;
  Id(hid_t id, Closer close) : id_(id), close_(close) {}
  Id(Id&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = H5I_INVALID_HID; }
  Id& operator=(Id&& o) noexcept;
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  ~Id() { Reset(); }
  void Reset();
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

/// Turns HDF5's automatic error printing off (once per process).
void Quiet();

/// `where` (file and object) names every error of these functions.
struct Location {
  hid_t id;
  std::string where;
};

// ---- Writing.
Id CreateGroup(const Location& parent, const std::string& name);
/// A dataset of doubles with the given shape (row-major `values`).
void WriteDoubles(const Location& parent, const std::string& name, const std::vector<hsize_t>& shape,
                  const double* values);
/// A dataset of bytes, gzip-compressed in chunks of one row.
void WriteBytes(const Location& parent, const std::string& name, const std::vector<hsize_t>& shape,
                const std::uint8_t* values);
void WriteAttribute(const Location& object, const std::string& name, const std::string& value);
void WriteAttribute(const Location& object, const std::string& name, std::int64_t value);
void WriteAttribute(const Location& object, const std::string& name, double value);
void WriteAttribute(const Location& object, const std::string& name, const std::vector<std::string>& value);
void WriteAttribute(const Location& object, const std::string& name, const std::vector<double>& value);

// ---- Reading (InputError when missing or of another kind).
bool HasLink(const Location& parent, const std::string& name);
Id OpenGroup(const Location& parent, const std::string& name);
/// The shape of dataset `name`.
std::vector<hsize_t> DatasetShape(const Location& parent, const std::string& name);
std::vector<double> ReadDoubles(const Location& parent, const std::string& name);
std::vector<std::uint8_t> ReadBytes(const Location& parent, const std::string& name);
bool HasAttribute(const Location& object, const std::string& name);
std::string ReadStringAttribute(const Location& object, const std::string& name);
std::int64_t ReadIntAttribute(const Location& object, const std::string& name);
double ReadDoubleAttribute(const Location& object, const std::string& name);
std::vector<std::string> ReadStringListAttribute(const Location& object, const std::string& name);
std::vector<double> ReadDoubleListAttribute(const Location& object, const std::string& name);
/// The names of a group's links, in name order.
std::vector<std::string> LinkNames(const Location& group);

}  // namespace stiction::hdf5
