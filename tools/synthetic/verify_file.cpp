// verify_file: reads a file back through netCDF-C and compares it with the fill rule.
#include <netcdf.h>

#include <algorithm>
#include <sstream>
#include <utility>

#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio_model/wrf_history.hpp"
#include "synthetic.hpp"

namespace nwpio::synthetic {
namespace {

constexpr std::size_t kMaxProblems = 10;

// The checked wrapper for netCDF-C: names the call and the file, gives nc_strerror's message.
void nc_check(int rc, const char* call, const std::string& path) {
  if (rc != NC_NOERR) {
    throw Error(ErrorKind::Netcdf, std::string(call) + " failed on " + path + ": " + nc_strerror(rc));
  }
}

class File {
 public:
  explicit File(const std::string& path) : path_(path) { nc_check(nc_open(path.c_str(), NC_NOWRITE, &id_), "nc_open", path); }
  ~File() { nc_close(id_); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  int id() const noexcept { return id_; }
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
  int id_ = -1;
};

class Checker {
 public:
  Checker(const File& file, VerifyResult& result) : file_(file), result_(result) {}

  void problem(const std::string& text) {
    result_.ok = false;
    if (result_.problems.size() < kMaxProblems) result_.problems.push_back(text);
  }

  std::vector<std::string> dim_names(int varid, std::vector<std::size_t>* lengths = nullptr) {
    int ndims = 0;
    nc_check(nc_inq_varndims(file_.id(), varid, &ndims), "nc_inq_varndims", file_.path());
    std::vector<int> ids(static_cast<std::size_t>(ndims));
    nc_check(nc_inq_vardimid(file_.id(), varid, ids.data()), "nc_inq_vardimid", file_.path());
    std::vector<std::string> names;
    for (int d : ids) {
      char name[NC_MAX_NAME + 1] = {};
      std::size_t len = 0;
      nc_check(nc_inq_dim(file_.id(), d, name, &len), "nc_inq_dim", file_.path());
      names.emplace_back(name);
      if (lengths) lengths->push_back(len);
    }
    return names;
  }

  // Returns the dates in Times (empty when Times is not WRF's).
  std::vector<std::string> check_times(std::size_t records, const std::vector<std::string>& expected) {
    int varid = -1;
    if (nc_inq_varid(file_.id(), "Times", &varid) != NC_NOERR || varid != 0) {
      problem("Times is not variable 0");
      return {};
    }
    nc_type type = 0;
    nc_check(nc_inq_vartype(file_.id(), 0, &type), "nc_inq_vartype", file_.path());
    std::vector<std::size_t> lengths;
    const auto names = dim_names(0, &lengths);
    if (type != NC_CHAR || names != std::vector<std::string>{"Time", "DateStrLen"} || lengths[1] != 19) {
      problem("Times is not char Times(Time, DateStrLen = 19)");
      return {};
    }
    if (!expected.empty() && expected.size() != records) {
      problem("file holds " + std::to_string(records) + " records, expected " + std::to_string(expected.size()));
    }
    std::string text(records * 19, '\0');
    const std::size_t start[2] = {0, 0}, count[2] = {records, 19};
    if (records > 0) nc_check(nc_get_vara_text(file_.id(), 0, start, count, text.data()), "nc_get_vara_text(Times)", file_.path());
    std::string previous;
    std::vector<std::string> dates;
    for (std::size_t r = 0; r < records; ++r) {
      const std::string date = text.substr(r * 19, 19);
      dates.push_back(date);
      if (r < expected.size() && date != expected[r]) {
        problem("Times[" + std::to_string(r) + "] = \"" + date + "\", expected \"" + expected[r] + "\"");
      } else if (!wrf::is_valid_date(date) || (!previous.empty() && date <= previous)) {
        problem("Times[" + std::to_string(r) + "] = \"" + date + "\" is not a WRF date after the previous one");
      }
      previous = date;
    }
    return dates;
  }

  // Every value of every record: the fill rule, or, when `per_record` is given, its value for
  // the record (the time coordinate).
  template <class T>
  void check_values(const VarSpec& spec, int varid, std::size_t records, std::int64_t first_frame,
                    int (*get)(int, int, const std::size_t*, const std::size_t*, T*),
                    const std::vector<double>* per_record) {
    std::vector<std::size_t> lengths;
    const auto names = dim_names(varid, &lengths);
    const std::size_t n = names.size();  // Time first
    // Role of each non-Time dimension: 0 = i, 1 = j, 2 = k.
    std::vector<int> role(n, 2);
    for (std::size_t d = 1; d < n; ++d) {
      if (names[d].rfind("west_east", 0) == 0) role[d] = 0;
      else if (names[d].rfind("south_north", 0) == 0) role[d] = 1;
    }
    // Read one record, one outermost level at a time for 3-D fields, to bound memory.
    const std::size_t outer = n == 4 ? lengths[1] : 1;
    const std::size_t first_in_chunk = n == 4 ? 2 : 1;
    std::size_t chunk = 1;
    for (std::size_t d = first_in_chunk; d < n; ++d) chunk *= lengths[d];
    std::vector<T> buffer(chunk);
    std::vector<std::size_t> start(n, 0), count(lengths);
    for (std::size_t r = 0; r < records; ++r) {
      const std::int64_t t = first_frame + static_cast<std::int64_t>(r);
      start[0] = r;
      count[0] = 1;
      for (std::size_t level = 0; level < outer; ++level) {
        if (n == 4) {
          start[1] = level;
          count[1] = 1;
        }
        nc_check(get(file_.id(), varid, start.data(), count.data(), buffer.data()), "nc_get_vara", file_.path());
        for (std::size_t e = 0; e < chunk; ++e) {
          std::int64_t idx[3] = {0, 0, 0};
          std::size_t rest = e;
          for (std::size_t d = n; d-- > first_in_chunk;) {
            idx[role[d]] = static_cast<std::int64_t>(rest % lengths[d]);
            rest /= lengths[d];
          }
          if (n == 4) idx[role[1]] = static_cast<std::int64_t>(level);
          const T expected = per_record ? static_cast<T>((*per_record)[r])
                                        : static_cast<T>(fill_value(idx[0], idx[1], idx[2], t, varid));
          ++result_.values_checked;
          if (buffer[e] != expected) {
            ++result_.mismatches;
            std::ostringstream s;
            s << spec.name << " record " << r << " (i,j,k)=(" << idx[0] << "," << idx[1] << "," << idx[2]
              << "): " << +buffer[e] << ", expected " << +expected;
            problem(s.str());
          }
        }
      }
    }
  }

 private:
  const File& file_;
  VerifyResult& result_;
};

}  // namespace

std::string VerifyResult::summary() const {
  std::ostringstream s;
  if (ok) {
    s << "OK: " << records << (records == 1 ? " record, " : " records, ") << values_checked << " values";
    return s.str();
  }
  s << "FAILED (" << mismatches << " wrong values of " << values_checked << ")";
  for (const auto& p : problems) s << "; " << p;
  return s.str();
}

VerifyResult verify_file(const std::string& path, const Schema& schema, std::int64_t first_frame_index,
                         const std::vector<std::string>& expected_times, TimeValues time_values) {
  VerifyResult result;
  File file(path);
  Checker check(file, result);
  int unlimited = -1;
  nc_check(nc_inq_unlimdim(file.id(), &unlimited), "nc_inq_unlimdim", path);
  if (unlimited < 0) {
    check.problem("no unlimited (Time) dimension");
    return result;
  }
  std::size_t records = 0;
  nc_check(nc_inq_dimlen(file.id(), unlimited, &records), "nc_inq_dimlen", path);
  result.records = static_cast<int>(records);
  const std::vector<std::string> dates = check.check_times(records, expected_times);

  int nvars = 0;
  nc_check(nc_inq_nvars(file.id(), &nvars), "nc_inq_nvars", path);
  const auto& vars = schema.variables();
  if (static_cast<std::size_t>(nvars) != vars.size() + 1) {
    check.problem("file has " + std::to_string(nvars) + " variables, expected " + std::to_string(vars.size() + 1) +
                  " (Times and the schema's)");
  }
  for (std::size_t s = 0; s < vars.size(); ++s) {
    const VarSpec& spec = vars[s];
    int varid = -1;
    if (nc_inq_varid(file.id(), spec.name.c_str(), &varid) != NC_NOERR) {
      check.problem("variable " + spec.name + " is missing");
      continue;
    }
    if (varid != variable_id(s)) {
      check.problem("variable " + spec.name + " has id " + std::to_string(varid) + ", expected " +
                    std::to_string(variable_id(s)));
    }
    if (check.dim_names(varid) != wrf::file_dimensions(spec)) {
      check.problem("variable " + spec.name + " does not have WRF's dimensions");
      continue;
    }
    // The time coordinate's expected value per record: minutes from its origin to Times[r].
    std::vector<double> minutes;
    const std::vector<double>* per_record = nullptr;
    if (const auto origin = time_origin_seconds(spec); origin && time_values == TimeValues::MinutesSinceStart) {
      if (dates.size() != records) {
        check.problem(spec.name + ": Times unreadable, so its minutes cannot be checked");
        continue;
      }
      for (const std::string& date : dates) {
        minutes.push_back(wrf::is_valid_date(date) ? static_cast<double>(wrf::date_to_seconds(date) - *origin) / 60.0
                                                   : -1.0);
      }
      per_record = &minutes;
    } else if (time_values == TimeValues::MinutesSinceStart && spec.name == wrf::kTimeCoordinate) {
      check.problem(spec.name + " has no units \"minutes since YYYY-MM-DD HH:MM:SS\"");
    }
    nc_type type = 0;
    nc_check(nc_inq_vartype(file.id(), varid, &type), "nc_inq_vartype", path);
    switch (spec.type) {
      case DataType::Float:
        if (type != NC_FLOAT) break;
        check.check_values<float>(spec, varid, records, first_frame_index, nc_get_vara_float, per_record);
        continue;
      case DataType::Double:
        if (type != NC_DOUBLE) break;
        check.check_values<double>(spec, varid, records, first_frame_index, nc_get_vara_double, per_record);
        continue;
      case DataType::Int:
        if (type != NC_INT) break;
        check.check_values<int>(spec, varid, records, first_frame_index, nc_get_vara_int, per_record);
        continue;
      case DataType::Char: break;
    }
    check.problem("variable " + spec.name + " has netCDF type " + std::to_string(type) + ", schema says " +
                  std::string(to_string(spec.type)));
  }
  return result;
}

}  // namespace nwpio::synthetic
