// A file WRF opens for reading through the ext_pnc_* package: in practice the restart file the
// package wrote (io_form_restart = 11), read back when WRF restarts.
//
// Reading goes through netCDF-C (which reads CDF-2 and CDF-5): every rank opens the file and
// reads its own patch with independent calls. That needs no collective at all, which matters
// because WRF calls get_next_time on rank 0 only and broadcasts the answer, and every rank asks
// for attributes on its own. The protocol mirrors WRF's own package: open_for_read_begin (state
// 101, "training": read_field does nothing), open_for_read_commit (103), get_next_time /
// set_time, get_dom_ti_* / get_var_ti_*, get_var_info, read_field, ioclose.
#pragma once

#include <mpi.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "wrfio/field_call.hpp"

namespace nwpio::wrfio {

// What kind of values an attribute call wants (logical travels as Int: 0/1).
enum class AttributeKind { Text, Int, Real, Double };

class ReadFile {
 public:
  // Collective over comm only to agree that every rank could open the file (WrfError
  // kFileNotFound naming the places looked at, on every rank).
  ReadFile(MPI_Comm comm, std::string wrf_file_name, std::string_view sysdep_info);
  ~ReadFile();
  ReadFile(const ReadFile&) = delete;
  ReadFile& operator=(const ReadFile&) = delete;

  const std::string& wrf_file_name() const noexcept { return wrf_file_name_; }
  int file_state() const noexcept;
  void commit() noexcept { committed_ = true; }

  // Local. The next / previous record's date; kTimeEof (quiet) after the last.
  std::string next_time();
  std::string previous_time();
  void set_time(const std::string& date);  // kTimeNotFound (quiet) for a date not in the file

  struct VarInfo {
    int ndim = 0;
    std::string memory_order;  // as stored, e.g. "XYZ", "XY ", "Z  ", "0  "
    std::array<int, 3> domain_start{1, 1, 1};
    std::array<int, 3> domain_end{1, 1, 1};  // lengths, fastest dimension first
    int field_type = 0;
  };
  VarInfo var_info(const std::string& var) const;

  // Local. Reads this rank's patch of `call.date`'s record into `field` (the memory array).
  // Before commit it does nothing, as WRF's own package.
  void read_field(const FieldCall& call, void* field) const;

  // Local. A global (var empty) or variable attribute. Numbers: `count` values at most go to
  // `data`, `out_count` says how many (kMoreDataInFile when the file holds more). Text: `data`
  // is a CHARACTER buffer of `count` bytes, blank-padded. Before commit: nothing, success.
  int get_attribute(const std::string& var, const std::string& name, AttributeKind kind, void* data, int count,
                    int* out_count) const;

 private:
  int varid(const std::string& var) const;
  std::size_t record_of(const std::string& date) const;

  std::string wrf_file_name_;
  std::string path_;
  int ncid_ = -1;
  bool committed_ = false;
  std::vector<std::string> times_;
  std::size_t current_ = 0;  // 1-based index of the current record; 0 before the first
};

}  // namespace nwpio::wrfio
