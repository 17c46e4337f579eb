// Checks one output file the way an operator would before trusting it: it opens with
// netCDF-C, is WRF-structured (Time unlimited, DateStrLen 19, char Times(Time, DateStrLen)),
// its frames carry valid increasing dates, and (classic formats) the file is as long as its
// header says. A temporary file (.nwpio-tmp) is a write not committed: one in progress, one
// interrupted, or a complete file whose rename failed (said so, with the `mv` that recovers it).
// A completion ledger (.nwpio-done) beside its temporary file belongs to that write; without one,
// it is a leftover of a commit that happened (or of a file removed): stale, safe to remove.
#include "file_check.hpp"

#include <fmt/format.h>
#include <netcdf.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

#ifdef NWPIO_HAVE_PNETCDF
#include <mpi.h>
#include <pnetcdf.h>
#endif

#include "nwpio/wrf_date.hpp"

namespace nwpio::check {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string format_name(int format) {
  switch (format) {
    case NC_FORMAT_CLASSIC: return "CDF-1";
    case NC_FORMAT_64BIT_OFFSET: return "CDF-2";
    case NC_FORMAT_CDF5: return "CDF-5";
    case NC_FORMAT_NETCDF4: return "netCDF-4";
    case NC_FORMAT_NETCDF4_CLASSIC: return "netCDF-4 classic";
    default: return "unknown format";
  }
}

#ifdef NWPIO_HAVE_PNETCDF
// Bytes of one element of a classic-format type (for the size PnetCDF's header promises).
long long type_size(nc_type type) {
  switch (type) {
    case NC_BYTE: case NC_UBYTE: case NC_CHAR: return 1;
    case NC_SHORT: case NC_USHORT: return 2;
    case NC_INT: case NC_UINT: case NC_FLOAT: return 4;
    default: return 8;
  }
}
#endif

// Closes the netCDF id on every path out.
struct NcFile {
  int id = -1;
  ~NcFile() {
    if (id >= 0) nc_close(id);
  }
};

// Classic formats: the size the header promises (fixed variables + numrecs records). Returns -1
// when it cannot be computed (no PnetCDF, or netCDF-4).
long long expected_size(const std::string& path, std::string& why) {
#ifdef NWPIO_HAVE_PNETCDF
  int ncid = -1;
  int rc = ncmpi_open(MPI_COMM_SELF, path.c_str(), NC_NOWRITE, MPI_INFO_NULL, &ncid);
  if (rc != NC_NOERR) {
    why = fmt::format("ncmpi_open: {}", ncmpi_strerror(rc));
    return -1;
  }
  MPI_Offset extent = 0, recsize = 0, numrecs = 0, end = 0;
  int nvars = 0;
  ncmpi_inq_header_extent(ncid, &extent);
  ncmpi_inq_recsize(ncid, &recsize);
  ncmpi_inq_nvars(ncid, &nvars);
  int unlimdim = -1;
  ncmpi_inq_unlimdim(ncid, &unlimdim);
  if (unlimdim >= 0) ncmpi_inq_dimlen(ncid, unlimdim, &numrecs);
  end = extent;
  MPI_Offset first_record_begin = -1, last_record_var = -1, last_record_var_bytes = 0;
  for (int v = 0; v < nvars; ++v) {
    MPI_Offset offset = 0;
    int ndims = 0;
    int dims[NC_MAX_VAR_DIMS];
    nc_type type;
    ncmpi_inq_varoffset(ncid, v, &offset);
    ncmpi_inq_var(ncid, v, nullptr, &type, &ndims, dims, nullptr);
    const bool record = ndims > 0 && dims[0] == unlimdim;
    MPI_Offset bytes = type_size(type);  // one record's worth for a record variable, unpadded
    for (int d = record ? 1 : 0; d < ndims; ++d) {
      MPI_Offset len = 0;
      ncmpi_inq_dimlen(ncid, dims[d], &len);
      bytes *= len;
    }
    if (record) {
      if (first_record_begin < 0 || offset < first_record_begin) first_record_begin = offset;
      if (offset > last_record_var) {
        last_record_var = offset;
        last_record_var_bytes = bytes;
      }
      continue;
    }
    if (offset + bytes > end) end = offset + bytes;
  }
  if (first_record_begin >= 0 && numrecs > 0) {
    // The last record ends with its last variable's own bytes: recsize includes that
    // variable's padding to 4 bytes, which the writer of the last record need not write.
    const MPI_Offset records_end = last_record_var + (numrecs - 1) * recsize + last_record_var_bytes;
    if (records_end > end) end = records_end;
  }
  ncmpi_close(ncid);
  return static_cast<long long>(end);
#else
  (void)path;
  why = "size not checked (nwpio-check built without PnetCDF)";
  return -1;
#endif
}

}  // namespace

std::string final_name_of(const std::string& path) {
  std::string_view suffix;
  for (std::string_view s : {std::string_view(kTemporarySuffix), std::string_view(kLedgerSuffix)}) {
    if (ends_with(path, s)) suffix = s;
  }
  if (suffix.empty()) return {};
  const std::filesystem::path p(path.substr(0, path.size() - suffix.size()));
  const std::filesystem::path folder = p.parent_path();
  // In a private folder: the final name is in the folder above it.
  if (folder.filename().string().rfind(kPrivateDirPrefix, 0) == 0) {
    const std::filesystem::path above = folder.parent_path();
    return (above.empty() ? std::filesystem::path(".") / p.filename() : above / p.filename()).string();
  }
  return p.string();
}

namespace {

// The netCDF checks of one file (any name). `summary`: what an OK line says after the path.
FileReport inspect_netcdf(const std::string& path, std::string& summary) {
  FileReport report;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    report.line = fmt::format("BAD  {}: cannot stat: {}", path, std::strerror(errno));
    return report;
  }
  // (never opened otherwise: opening a FIFO would wait for a writer)
  if (!S_ISREG(st.st_mode)) {
    report.line = fmt::format("BAD  {}: not a regular file ({})", path,
                              S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket");
    return report;
  }
  NcFile file;
  if (int rc = nc_open(path.c_str(), NC_NOWRITE, &file.id); rc != NC_NOERR) {
    file.id = -1;
    report.line = fmt::format("BAD  {}: not a readable netCDF file: {}", path, nc_strerror(rc));
    return report;
  }
  int format = 0, nvars = 0, unlim = -1;
  nc_inq_format(file.id, &format);
  nc_inq_nvars(file.id, &nvars);
  nc_inq_unlimdim(file.id, &unlim);
  const std::string fmt_name = format_name(format);

  int time_dim = -1, strlen_dim = -1, times_var = -1;
  size_t strlen_len = 0, frames = 0;
  if (nc_inq_dimid(file.id, "Time", &time_dim) != NC_NOERR || time_dim != unlim) {
    report.line = fmt::format("BAD  {}: {}, no unlimited Time dimension: not WRF history", path, fmt_name);
    return report;
  }
  nc_inq_dimlen(file.id, time_dim, &frames);
  if (nc_inq_dimid(file.id, "DateStrLen", &strlen_dim) != NC_NOERR ||
      nc_inq_dimlen(file.id, strlen_dim, &strlen_len) != NC_NOERR || strlen_len != 19) {
    report.line = fmt::format("BAD  {}: {}, no DateStrLen = 19 dimension: not WRF history", path, fmt_name);
    return report;
  }
  if (nc_inq_varid(file.id, "Times", &times_var) != NC_NOERR) {
    report.line = fmt::format("BAD  {}: {}, no Times variable: not WRF history", path, fmt_name);
    return report;
  }
  if (frames == 0) {
    report.line = fmt::format("BAD  {}: {}, WRF structure but no frame written", path, fmt_name);
    return report;
  }
  std::vector<char> times(frames * 19);
  size_t start[2] = {0, 0}, count[2] = {frames, 19};
  if (int rc = nc_get_vara_text(file.id, times_var, start, count, times.data()); rc != NC_NOERR) {
    report.line = fmt::format("BAD  {}: {}, cannot read Times: {}", path, fmt_name, nc_strerror(rc));
    return report;
  }
  std::string previous;
  for (size_t f = 0; f < frames; ++f) {
    std::string date(&times[f * 19], 19);
    if (!wrf::is_valid_date(date)) {
      report.line = fmt::format("BAD  {}: {}, frame {} has no valid date ('{}'): incomplete frame", path,
                                fmt_name, f, date);
      return report;
    }
    if (!previous.empty() && date <= previous) {
      report.line = fmt::format("BAD  {}: {}, frame {} date {} is not after {}", path, fmt_name, f, date, previous);
      return report;
    }
    previous = date;
  }
  std::string first(&times[0], 19);
  std::string size_note;
  if (format != NC_FORMAT_NETCDF4 && format != NC_FORMAT_NETCDF4_CLASSIC) {
    std::string why;
    long long want = expected_size(path, why);
    if (want > static_cast<long long>(st.st_size)) {
      report.line = fmt::format("BAD  {}: {}, truncated: {} bytes on disk, header promises {}", path, fmt_name,
                                static_cast<long long>(st.st_size), want);
      return report;
    }
    if (want < 0) size_note = "; " + why;
  }
  report.verdict = Verdict::Ok;
  summary = fmt::format("{}, WRF history, {} frame{} {}{}{}, {} variables{}", fmt_name, frames, frames == 1 ? "" : "s",
                        first, frames > 1 ? " .. " : "", frames > 1 ? previous : "", nvars, size_note);
  report.line = fmt::format("OK   {}: {}", path, summary);
  return report;
}

// A path quoted for a POSIX shell (the commands the lines give are pasted as they are).
std::string quoted(const std::string& path) {
  std::string out = "'";
  for (char c : path) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string with_suffix(const std::string& path, std::string_view from, std::string_view to) {
  return path.substr(0, path.size() - from.size()) + std::string(to);
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// A completion ledger's marks: one byte per writer, 1 once that writer's bytes are in the file
// (src/filesink/completion_ledger.hpp).
struct LedgerMarks {
  bool present = false;
  std::size_t marked = 0, slots = 0;
  bool complete() const { return present && slots > 0 && marked == slots; }
};

LedgerMarks read_ledger(const std::string& path) {
  LedgerMarks m;
  std::ifstream in(path, std::ios::binary);
  if (!in) return m;
  m.present = true;
  for (char c; in.get(c);) {
    ++m.slots;
    if (c == 1) ++m.marked;
  }
  return m;
}

FileReport check_ledger(const std::string& path) {
  const std::string temp = with_suffix(path, kLedgerSuffix, kTemporarySuffix);
  const std::string final_path = final_name_of(path);
  const LedgerMarks marks = read_ledger(path);
  if (!exists(temp)) {
    return {Verdict::Stale,
            fmt::format("STALE {}: leftover completion ledger of {}, {}; nothing uses it: remove it with: rm -f -- {}", path,
                        final_path,
                        exists(final_path) ? "which has its final name (committed)"
                                           : "whose temporary file is gone (removed, or committed and renamed since)",
                        quoted(path))};
  }
  if (marks.complete()) {
    return {Verdict::Temporary,
            fmt::format("TEMP {}: completion ledger of {}: all {} writers finished, the file is complete (see its line)",
                        path, temp, marks.slots)};
  }
  return {Verdict::Temporary,
          fmt::format("TEMP {}: completion ledger of {} ({} of {} writers finished; written behind the model, not "
                      "committed): a write in progress, or left by one that never finished; safe to delete when no job "
                      "writes {}",
                      path, final_path, marks.marked, marks.slots, final_path)};
}

FileReport check_temporary(const std::string& path) {
  const std::string final_path = final_name_of(path);
  const std::string ledger = with_suffix(path, kTemporarySuffix, kLedgerSuffix);
  const LedgerMarks marks = read_ledger(ledger);
  std::string summary;
  // Writers still missing in its ledger: not complete, whatever it reads like now.
  const bool whole = (!marks.present || marks.complete()) && inspect_netcdf(path, summary).verdict == Verdict::Ok;
  if (!whole) {
    return {Verdict::Temporary,
            fmt::format("TEMP {}: not complete (would become {}): a write in progress, or left by one that never "
                        "finished; safe to delete when no job writes {}",
                        path, final_path, final_path)};
  }
  // Complete but never renamed: the commit failed (a folder made read-only, a quota) or the job
  // ended between the last write and the rename. Without a ledger (written without write-behind,
  // or its ledger already removed) the file is whole as it stands: a run that ended early leaves
  // fewer frames than it would have written.
  const std::string how = marks.complete() ? "complete, all " + std::to_string(marks.slots) + " writers finished"
                                           : "complete as it stands";
  const std::string mv = "mv -n -- " + quoted(path) + " " + quoted(final_path) +
                         (marks.present ? " && rm -f -- " + quoted(ledger) : std::string());
  return {Verdict::Temporary,
          fmt::format("TEMP {}: {} but not renamed ({}): its commit to {} failed or was interrupted; {}", path, how,
                      summary, final_path,
                      exists(final_path)
                          ? fmt::format("{} exists: compare the two before keeping one", final_path)
                          : fmt::format("when no job writes {}, recover it with: {}", final_path, mv))};
}

}  // namespace

FileReport check_file(const std::string& path) {
  if (ends_with(path, kTemporarySuffix)) return check_temporary(path);
  if (ends_with(path, kLedgerSuffix)) return check_ledger(path);
  std::string summary;
  return inspect_netcdf(path, summary);
}

}  // namespace nwpio::check
