#include "bp_to_netcdf.hpp"

#include <netcdf.h>

#include <adios2.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>

namespace nwpio::bp2nc {

namespace {

constexpr const char* kTimes = "Times";
constexpr const char* kTime = "Time";
constexpr const char* kDimPrefix = "_DIM_";

void nc_check(int rc, const std::string& call, const std::string& path) {
  if (rc != NC_NOERR) throw std::runtime_error(call + " failed for '" + path + "': " + nc_strerror(rc));
}

// Fortran strings arrive blank-padded (and sometimes NUL-terminated).
std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

// One variable of the BP file as the netCDF file will hold it.
struct VarPlan {
  std::string name;
  std::string type;                 // ADIOS2's type name
  nc_type xtype = NC_NAT;
  std::vector<std::string> dims;    // C order, Time first
  std::vector<std::size_t> record;  // lengths of the dimensions after Time
  std::int64_t record_elements = 1;
  int varid = -1;
};

nc_type netcdf_type(const std::string& adios_type, const std::string& var) {
  if (adios_type == "float") return NC_FLOAT;
  if (adios_type == "double") return NC_DOUBLE;
  if (adios_type == "int32_t") return NC_INT;
  if (adios_type == "string" || adios_type == "char" || adios_type == "int8_t" || adios_type == "uint8_t") return NC_CHAR;
  throw std::runtime_error("variable " + var + ": ADIOS2 type " + adios_type + " has no WRF netCDF type");
}

class Converter {
 public:
  Converter(const std::string& bp, const std::string& nc, const ConvertOptions& options)
      : bp_(bp), nc_(nc), options_(options), io_(adios_.DeclareIO("nwpio-bp2nc")) {}

  ConvertResult run() {
    adios2::Engine reader = io_.Open(bp_, adios2::Mode::Read);
    ConvertResult result;
    int ncid = -1;
    while (reader.BeginStep() == adios2::StepStatus::OK) {
      if (result.records == 0) {
        plan();
        nc_check(nc_create(nc_.c_str(), NC_CLOBBER | NC_64BIT_OFFSET, &ncid), "nc_create", nc_);
        int old = 0;
        nc_check(nc_set_fill(ncid, NC_NOFILL, &old), "nc_set_fill", nc_);
        define(ncid);
        nc_check(nc_enddef(ncid), "nc_enddef", nc_);
      }
      for (VarPlan& v : vars_) result.bytes += copy_record(reader, ncid, v, static_cast<std::size_t>(result.records));
      reader.EndStep();
      ++result.records;
    }
    reader.Close();
    if (ncid < 0) throw std::runtime_error(bp_ + ": no step to convert");
    nc_check(nc_close(ncid), "nc_close", nc_);
    result.variables = static_cast<int>(vars_.size());
    return result;
  }

 private:
  // Dimensions from the _DIM_ attributes, variables and their dimensions from <var>/Dims.
  void plan() {
    for (const auto& [name, params] : io_.AvailableAttributes()) {
      if (name.rfind(kDimPrefix, 0) != 0) continue;
      dim_length_[trimmed(name.substr(5))] = static_cast<std::size_t>(int_attribute(name, params.at("Type")));
    }
    dim_length_["DateStrLen"] = dim_length_.count("DateStrLen") ? dim_length_["DateStrLen"] : 19;
    std::vector<std::string> names;
    for (const auto& [name, params] : io_.AvailableVariables()) names.push_back(name);
    std::vector<std::string> ordered;
    for (const std::string& n : options_.order) {
      if (std::find(names.begin(), names.end(), n) != names.end()) ordered.push_back(n);
    }
    if (options_.order.empty() && std::find(names.begin(), names.end(), kTimes) != names.end()) ordered.push_back(kTimes);
    for (const std::string& n : names) {
      if (std::find(ordered.begin(), ordered.end(), n) == ordered.end()) ordered.push_back(n);
    }
    for (const std::string& n : ordered) vars_.push_back(plan_variable(n));
  }

  std::int64_t int_attribute(const std::string& name, const std::string& type) {
    if (type == "int32_t") return io_.InquireAttribute<std::int32_t>(name).Data().at(0);
    if (type == "int64_t") return io_.InquireAttribute<std::int64_t>(name).Data().at(0);
    throw std::runtime_error(bp_ + ": attribute " + name + " has type " + type + ", not an integer");
  }

  VarPlan plan_variable(const std::string& name) {
    VarPlan v;
    v.name = name;
    v.type = io_.VariableType(name);
    v.xtype = netcdf_type(v.type, name);
    auto dims_attr = io_.InquireAttribute<std::string>("Dims", name);
    if (!dims_attr) throw std::runtime_error(bp_ + ": variable " + name + " has no Dims attribute (not written by WRF?)");
    std::vector<std::string> fortran;
    for (const std::string& d : dims_attr.Data()) fortran.push_back(trimmed(d));
    if (fortran.empty() || fortran.back() != kTime) {
      throw std::runtime_error(bp_ + ": variable " + name + ": Dims does not end with Time");
    }
    v.dims.push_back(kTime);
    for (auto it = fortran.rbegin() + 1; it != fortran.rend(); ++it) {
      if (!dim_length_.count(*it)) throw std::runtime_error(bp_ + ": variable " + name + ": dimension " + *it + " has no _DIM_ attribute");
      v.dims.push_back(*it);
      v.record.push_back(dim_length_[*it]);
      v.record_elements *= static_cast<std::int64_t>(dim_length_[*it]);
    }
    return v;
  }

  int dimension(int ncid, const std::string& name) {
    auto it = dim_id_.find(name);
    if (it != dim_id_.end()) return it->second;
    int id = -1;
    const std::size_t len = name == kTime ? NC_UNLIMITED : dim_length_.at(name);
    nc_check(nc_def_dim(ncid, name.c_str(), len, &id), "nc_def_dim(" + name + ")", nc_);
    dim_id_.emplace(name, id);
    return id;
  }

  void define(int ncid) {
    dimension(ncid, kTime);
    dimension(ncid, "DateStrLen");
    for (VarPlan& v : vars_) {
      std::vector<int> ids;
      for (const std::string& d : v.dims) ids.push_back(dimension(ncid, d));
      nc_check(nc_def_var(ncid, v.name.c_str(), v.xtype, static_cast<int>(ids.size()), ids.data(), &v.varid),
               "nc_def_var(" + v.name + ")", nc_);
    }
    // Attributes: <var>/<att> to the variable (Dims is the converter's own input), the rest global.
    std::map<std::string, int> varids;
    for (const VarPlan& v : vars_) varids[v.name] = v.varid;
    for (const auto& [name, params] : io_.AvailableAttributes()) {
      if (name.rfind(kDimPrefix, 0) == 0) continue;
      const auto slash = name.rfind('/');
      int varid = NC_GLOBAL;
      std::string att = name;
      if (slash != std::string::npos) {
        const auto it = varids.find(name.substr(0, slash));
        att = name.substr(slash + 1);
        if (it == varids.end() || att == "Dims") continue;
        varid = it->second;
      }
      put_attribute(ncid, varid, name, att, params.at("Type"));
    }
  }

  void put_attribute(int ncid, int varid, const std::string& full, const std::string& att, const std::string& type) {
    const std::string call = "nc_put_att(" + full + ")";
    if (type == "string") {
      const auto data = io_.InquireAttribute<std::string>(full).Data();
      std::string text;
      for (const auto& s : data) text += s;  // WRF writes one string per attribute
      text = trimmed(text);
      nc_check(nc_put_att_text(ncid, varid, att.c_str(), text.size(), text.data()), call, nc_);
    } else if (type == "float") {
      const auto d = io_.InquireAttribute<float>(full).Data();
      nc_check(nc_put_att_float(ncid, varid, att.c_str(), NC_FLOAT, d.size(), d.data()), call, nc_);
    } else if (type == "double") {
      const auto d = io_.InquireAttribute<double>(full).Data();
      nc_check(nc_put_att_double(ncid, varid, att.c_str(), NC_DOUBLE, d.size(), d.data()), call, nc_);
    } else if (type == "int32_t") {
      const auto d = io_.InquireAttribute<std::int32_t>(full).Data();
      nc_check(nc_put_att_int(ncid, varid, att.c_str(), NC_INT, d.size(), d.data()), call, nc_);
    } else {
      throw std::runtime_error(bp_ + ": attribute " + full + " has ADIOS2 type " + type + ", which WRF does not write");
    }
  }

  template <class T>
  std::vector<T> read_all(adios2::Engine& reader, const std::string& name, std::int64_t expected) {
    adios2::Variable<T> var = io_.InquireVariable<T>(name);
    if (!var) throw std::runtime_error(bp_ + ": variable " + name + " is missing in a step");
    const adios2::Dims shape = var.Shape();
    const std::size_t n = std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
    if (static_cast<std::int64_t>(n) != expected) {
      throw std::runtime_error(bp_ + ": variable " + name + " holds " + std::to_string(n) + " values per step, its Dims say " +
                               std::to_string(expected));
    }
    var.SetSelection({adios2::Dims(shape.size(), 0), shape});
    std::vector<T> data(n);
    reader.Get(var, data.data(), adios2::Mode::Sync);
    return data;
  }

  std::int64_t copy_record(adios2::Engine& reader, int ncid, const VarPlan& v, std::size_t record) {
    std::vector<std::size_t> start{record}, count{1};
    for (std::size_t len : v.record) {
      start.push_back(0);
      count.push_back(len);
    }
    const std::string call = "nc_put_vara(" + v.name + ")";
    if (v.type == "string") {
      adios2::Variable<std::string> var = io_.InquireVariable<std::string>(v.name);
      if (!var) throw std::runtime_error(bp_ + ": variable " + v.name + " is missing in a step");
      std::string s;
      reader.Get(var, s, adios2::Mode::Sync);
      s.resize(static_cast<std::size_t>(v.record_elements), ' ');
      nc_check(nc_put_vara_text(ncid, v.varid, start.data(), count.data(), s.data()), call, nc_);
      return v.record_elements;
    }
    if (v.type == "float") {
      const auto d = read_all<float>(reader, v.name, v.record_elements);
      nc_check(nc_put_vara_float(ncid, v.varid, start.data(), count.data(), d.data()), call, nc_);
      return v.record_elements * 4;
    }
    if (v.type == "double") {
      const auto d = read_all<double>(reader, v.name, v.record_elements);
      nc_check(nc_put_vara_double(ncid, v.varid, start.data(), count.data(), d.data()), call, nc_);
      return v.record_elements * 8;
    }
    if (v.type == "int32_t") {
      const auto d = read_all<std::int32_t>(reader, v.name, v.record_elements);
      nc_check(nc_put_vara_int(ncid, v.varid, start.data(), count.data(), d.data()), call, nc_);
      return v.record_elements * 4;
    }
    if (v.type == "char" || v.type == "int8_t" || v.type == "uint8_t") {
      const auto d = read_all<char>(reader, v.name, v.record_elements);
      nc_check(nc_put_vara_text(ncid, v.varid, start.data(), count.data(), d.data()), call, nc_);
      return v.record_elements;
    }
    throw std::runtime_error(bp_ + ": variable " + v.name + " has ADIOS2 type " + v.type);
  }

  std::string bp_, nc_;
  const ConvertOptions& options_;
  adios2::ADIOS adios_;
  adios2::IO io_;
  std::map<std::string, std::size_t> dim_length_;
  std::map<std::string, int> dim_id_;
  std::vector<VarPlan> vars_;
};

}  // namespace

ConvertResult convert(const std::string& bp_path, const std::string& nc_path, const ConvertOptions& options) {
  return Converter(bp_path, nc_path, options).run();
}

std::vector<std::string> netcdf_variable_order(const std::string& nc_path) {
  int ncid = -1, nvars = 0;
  nc_check(nc_open(nc_path.c_str(), NC_NOWRITE, &ncid), "nc_open", nc_path);
  std::vector<std::string> names;
  nc_check(nc_inq_nvars(ncid, &nvars), "nc_inq_nvars", nc_path);
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1] = {};
    nc_check(nc_inq_varname(ncid, v, name), "nc_inq_varname", nc_path);
    names.emplace_back(name);
  }
  nc_close(ncid);
  return names;
}

}  // namespace nwpio::bp2nc
