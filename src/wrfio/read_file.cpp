#include "wrfio/read_file.hpp"

#include <netcdf.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

#include "backend/netcdf/netcdf_call.hpp"
#include "util/agree.hpp"
#include "wrfio/package_options.hpp"
#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

namespace {

constexpr std::size_t kDateLength = 19;

[[noreturn]] void not_there(int status, const std::string& what) {
  throw WrfError(status, ErrorKind::InvalidArgument, what, /*quiet=*/true);
}

std::string att_text(int ncid, int varid, const char* name) {
  std::size_t len = 0;
  if (nc_inq_attlen(ncid, varid, name, &len) != NC_NOERR) return {};
  std::string s(len, '\0');
  if (len > 0 && nc_get_att_text(ncid, varid, name, s.data()) != NC_NOERR) return {};
  return s;
}

int att_int(int ncid, int varid, const char* name) {
  int v = 0;
  return nc_get_att_int(ncid, varid, name, &v) == NC_NOERR ? v : 0;
}

// The memory order's number of dimensions, as WRF's GetDim.
int dimensions_of(std::string order) {
  order.erase(order.find_last_not_of(' ') + 1);
  for (char& c : order) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (order.size() == 3) return 3;
  if (order.size() == 2) return 2;
  if (order == "Z" || order == "C") return 1;
  return 0;
}

// Copies the patch read in file order (k, j, i: i fastest) into the model's memory array in
// its memory order, converting the element type on the way.
template <class Out, class In>
void scatter(const FieldCall& c, const std::vector<In>& patch, void* field, bool logical) {
  const Box p = c.patch_box();
  const Box m = c.memory_box();
  std::array<std::int64_t, 3> stride{1, 1, 1};
  std::int64_t s = 1;
  for (int pos = 0; pos < c.ndim; ++pos) {
    for (int axis = 0; axis < 3; ++axis) {
      if (c.position(axis) == pos) {
        stride[static_cast<std::size_t>(axis)] = s;
        s *= m.extent(axis);
      }
    }
  }
  auto* out = static_cast<Out*>(field);
  std::size_t at = 0;
  for (std::int64_t k = p.lo[2]; k < p.hi[2]; ++k) {
    for (std::int64_t j = p.lo[1]; j < p.hi[1]; ++j) {
      for (std::int64_t i = p.lo[0]; i < p.hi[0]; ++i, ++at) {
        const std::int64_t d = (i - m.lo[0]) * stride[0] + (j - m.lo[1]) * stride[1] + (k - m.lo[2]) * stride[2];
        out[d] = logical ? static_cast<Out>(patch[at] != 0 ? 1 : 0) : static_cast<Out>(patch[at]);
      }
    }
  }
}

template <class T>
std::vector<T> read_patch(int ncid, int varid, const std::vector<std::size_t>& start,
                          const std::vector<std::size_t>& count, const std::string& path, const std::string& var) {
  std::size_t n = 1;
  for (std::size_t c : count) n *= c;
  std::vector<T> v(n);
  int rc = NC_NOERR;
  if constexpr (std::is_same_v<T, float>) rc = nc_get_vara_float(ncid, varid, start.data(), count.data(), v.data());
  if constexpr (std::is_same_v<T, double>) rc = nc_get_vara_double(ncid, varid, start.data(), count.data(), v.data());
  if constexpr (std::is_same_v<T, int>) rc = nc_get_vara_int(ncid, varid, start.data(), count.data(), v.data());
  detail::netcdf_check(rc, "nc_get_vara(" + var + ")", path);
  return v;
}

}  // namespace

ReadFile::ReadFile(MPI_Comm comm, std::string wrf_file_name, std::string_view sysdep_info)
    : wrf_file_name_(std::move(wrf_file_name)) {
  const OutputOptions o = package_options(comm, wrf_file_name_, parse_sysdep_info(sysdep_info).grid_id);
  std::optional<Error> local;
  path_ = find_readable_file(wrf_file_name_, o.output_dir);
  if (path_.empty()) {
    local = WrfError(wrf_status::kFileNotFound, ErrorKind::Io,
                     "cannot read '" + wrf_file_name_ + "': no such file (also looked for '" +
                         pnetcdf_file_name(wrf_file_name_) + "'" +
                         (o.output_dir != "." ? " and under output_dir '" + o.output_dir + "'" : std::string()) + ")");
  } else {
    const int rc = nc_open(path_.c_str(), NC_NOWRITE, &ncid_);
    if (rc != NC_NOERR) {
      ncid_ = -1;
      local = WrfError(wrf_status::kFileNotFound, ErrorKind::Netcdf,
                       "nc_open failed for '" + path_ + "': " + nc_strerror(rc));
    }
  }
  try {
    detail::agree(comm, local);
  } catch (const Error& e) {
    if (ncid_ >= 0) nc_close(ncid_);
    // agree() carries the kind and text of the first failing rank: the status is this one.
    throw WrfError(wrf_status::kFileNotFound, e.kind(), e.what());
  }
  // Times(Time, DateStrLen): the dates of the records.
  int times = -1;
  if (nc_inq_varid(ncid_, "Times", &times) == NC_NOERR) {
    int dims[2] = {0, 0};
    int ndims = 0;
    std::size_t n = 0, len = 0;
    nc_inq_varndims(ncid_, times, &ndims);
    if (ndims == 2 && nc_inq_vardimid(ncid_, times, dims) == NC_NOERR && nc_inq_dimlen(ncid_, dims[0], &n) == NC_NOERR &&
        nc_inq_dimlen(ncid_, dims[1], &len) == NC_NOERR && n > 0) {
      std::string text(n * len, ' ');
      const std::size_t start[2] = {0, 0}, count[2] = {n, len};
      detail::netcdf_check(nc_get_vara_text(ncid_, times, start, count, text.data()), "nc_get_vara_text(Times)", path_);
      for (std::size_t r = 0; r < n; ++r) times_.push_back(text.substr(r * len, std::min(len, kDateLength)));
    }
  }
}

ReadFile::~ReadFile() {
  if (ncid_ >= 0) nc_close(ncid_);
}

int ReadFile::file_state() const noexcept {
  return committed_ ? file_state::kOpenedForRead : file_state::kOpenedNotCommitted;
}

std::string ReadFile::next_time() {
  if (current_ >= times_.size()) not_there(wrf_status::kTimeEof, "no more times in " + path_);
  return times_[current_++];
}

std::string ReadFile::previous_time() {
  if (current_ > 1) --current_;
  if (current_ == 0 || times_.empty()) not_there(wrf_status::kTimeNotFound, "no previous time in " + path_);
  return times_[current_ - 1];
}

void ReadFile::set_time(const std::string& date) { current_ = record_of(date) + 1; }

std::size_t ReadFile::record_of(const std::string& date) const {
  const auto it = std::find(times_.begin(), times_.end(), date.substr(0, kDateLength));
  if (it == times_.end()) not_there(wrf_status::kTimeNotFound, "time " + date + " is not in " + path_);
  return static_cast<std::size_t>(it - times_.begin());
}

int ReadFile::varid(const std::string& var) const {
  int id = -1;
  if (nc_inq_varid(ncid_, var.c_str(), &id) != NC_NOERR) {
    throw WrfError(wrf_status::kVarNotFound, ErrorKind::InvalidArgument, "variable '" + var + "' is not in " + path_);
  }
  return id;
}

ReadFile::VarInfo ReadFile::var_info(const std::string& var) const {
  const int id = varid(var);
  VarInfo info;
  info.field_type = att_int(ncid_, id, "FieldType");
  info.memory_order = att_text(ncid_, id, "MemoryOrder");
  info.ndim = dimensions_of(info.memory_order);
  int ndims = 0;
  int dims[NC_MAX_VAR_DIMS];
  detail::netcdf_check(nc_inq_var(ncid_, id, nullptr, nullptr, &ndims, dims, nullptr), "nc_inq_var(" + var + ")", path_);
  // The file holds (Time, slowest, ..., fastest); WRF counts fastest first.
  for (int d = 0; d < info.ndim && d + 1 < ndims && d < 3; ++d) {
    std::size_t len = 0;
    nc_inq_dimlen(ncid_, dims[ndims - 1 - d], &len);
    info.domain_end[static_cast<std::size_t>(d)] = static_cast<int>(len);
  }
  return info;
}

void ReadFile::read_field(const FieldCall& call, void* field) const {
  if (!committed_) return;  // WRF's training pass over the fields: nothing to read yet
  const int id = varid(call.name);
  const int stored_type = att_int(ncid_, id, "FieldType");
  const bool real = [](int t) { return t == field_type::kReal || t == field_type::kDouble; }(call.wrf_field_type);
  const bool stored_real = stored_type == field_type::kReal || stored_type == field_type::kDouble;
  if (real ? !stored_real : stored_type != call.wrf_field_type) {
    throw WrfError(wrf_status::kTypeMismatch, ErrorKind::InvalidArgument,
                   "variable '" + call.name + "' has FieldType " + std::to_string(stored_type) + " in " + path_ +
                       ", WRF asks for " + std::to_string(call.wrf_field_type));
  }
  int ndims = 0;
  int dims[NC_MAX_VAR_DIMS];
  detail::netcdf_check(nc_inq_var(ncid_, id, nullptr, nullptr, &ndims, dims, nullptr), "nc_inq_var(" + call.name + ")", path_);
  if (ndims != call.ndim + 1) {
    throw WrfError(wrf_status::kDimensionError, ErrorKind::InvalidArgument,
                   "variable '" + call.name + "' has " + std::to_string(ndims) + " dimensions in " + path_ +
                       ", WRF's memory order " + std::string(to_string(call.order)) + " needs " +
                       std::to_string(call.ndim + 1));
  }
  // File order: Time, then the field's axes slowest first: (k, j, i) of those it has.
  const Box p = call.patch_box();
  std::vector<std::size_t> start{record_of(call.date)}, count{1};
  for (int axis = 2; axis >= 0; --axis) {
    if (call.position(axis) < 0) continue;
    start.push_back(static_cast<std::size_t>(p.lo[axis]));
    count.push_back(static_cast<std::size_t>(p.extent(axis)));
  }
  for (std::size_t d = 1; d < start.size(); ++d) {
    std::size_t len = 0;
    nc_inq_dimlen(ncid_, dims[d], &len);
    if (start[d] + count[d] > len) {
      throw WrfError(wrf_status::kDimensionError, ErrorKind::InvalidArgument,
                     "variable '" + call.name + "': the patch reaches " + std::to_string(start[d] + count[d]) +
                         " along a dimension of length " + std::to_string(len) + " in " + path_);
    }
  }
  const bool logical = call.wrf_field_type == field_type::kLogical;
  switch (call.wrf_field_type) {
    case field_type::kReal:
      scatter<float>(call, read_patch<float>(ncid_, id, start, count, path_, call.name), field, false);
      break;
    case field_type::kDouble:
      scatter<double>(call, read_patch<double>(ncid_, id, start, count, path_, call.name), field, false);
      break;
    default:
      scatter<std::int32_t>(call, read_patch<int>(ncid_, id, start, count, path_, call.name), field, logical);
      break;
  }
}

int ReadFile::get_attribute(const std::string& var, const std::string& name, AttributeKind kind, void* data,
                            int count, int* out_count) const {
  if (out_count) *out_count = 0;
  if (!committed_) return wrf_status::kNoErr;  // WRF's own package answers nothing in training
  const int id = var.empty() ? NC_GLOBAL : varid(var);
  nc_type type = NC_NAT;
  std::size_t len = 0;
  if (nc_inq_att(ncid_, id, name.c_str(), &type, &len) != NC_NOERR) {
    not_there(wrf_status::kMetadataNotFound, "attribute '" + name + "' is not in " + path_);
  }
  const bool ok = kind == AttributeKind::Text  ? type == NC_CHAR
                  : kind == AttributeKind::Int ? type == NC_INT
                                               : (type == NC_FLOAT || type == NC_DOUBLE);
  if (!ok) {
    throw WrfError(wrf_status::kTypeMismatch, ErrorKind::InvalidArgument,
                   "attribute '" + name + "' in " + path_ + " has another type than WRF asks for", /*quiet=*/true);
  }
  if (kind == AttributeKind::Text) {
    std::string text(len, ' ');
    if (len > 0) detail::netcdf_check(nc_get_att_text(ncid_, id, name.c_str(), text.data()), "nc_get_att_text", path_);
    auto* out = static_cast<char*>(data);
    const std::size_t room = count > 0 ? static_cast<std::size_t>(count) : 0;
    std::memset(out, ' ', room);
    std::memcpy(out, text.data(), std::min(room, text.size()));
    return text.size() > room ? wrf_status::kCharStringTooLong : wrf_status::kNoErr;
  }
  if (len == 0) not_there(wrf_status::kLengthLessThan1, "attribute '" + name + "' is empty in " + path_);
  const std::size_t n = std::min(len, static_cast<std::size_t>(std::max(count, 0)));
  int rc = NC_NOERR;
  if (kind == AttributeKind::Int) {
    std::vector<int> v(len);
    rc = nc_get_att_int(ncid_, id, name.c_str(), v.data());
    std::memcpy(data, v.data(), n * sizeof(int));
  } else if (kind == AttributeKind::Real) {
    std::vector<float> v(len);
    rc = nc_get_att_float(ncid_, id, name.c_str(), v.data());
    std::memcpy(data, v.data(), n * sizeof(float));
  } else {
    std::vector<double> v(len);
    rc = nc_get_att_double(ncid_, id, name.c_str(), v.data());
    std::memcpy(data, v.data(), n * sizeof(double));
  }
  detail::netcdf_check(rc, "nc_get_att(" + name + ")", path_);
  if (out_count) *out_count = static_cast<int>(n);
  return len > n ? wrf_status::kMoreDataInFile : wrf_status::kNoErr;
}

}  // namespace nwpio::wrfio
