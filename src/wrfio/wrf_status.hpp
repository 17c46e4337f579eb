// WRF's I/O API constants as WRF 4.7.1 defines them (external/ioapi_share/wrf_status_codes.h
// and wrf_io_flags.h), and the error that carries a WRF status across the package's C boundary.
#pragma once

#include <string>

#include "nwpio/error.hpp"

namespace nwpio::wrfio {

// Status codes (0 = success; negative = warning or error).
namespace wrf_status {
inline constexpr int kNoErr = 0;
inline constexpr int kFileNotFound = -1;
inline constexpr int kMetadataNotFound = -2;
inline constexpr int kTimeNotFound = -3;
inline constexpr int kTimeEof = -4;
inline constexpr int kVarNotFound = -5;
inline constexpr int kVarEof = -6;
inline constexpr int kTypeMismatch = -8;
inline constexpr int kWriteReadOnlyFile = -9;
inline constexpr int kReadWriteOnlyFile = -10;
inline constexpr int kFileNotOpened = -11;
inline constexpr int kTwoDryRunsOneVariable = -12;
inline constexpr int kBadDataHandle = -14;
inline constexpr int kLengthNotTrainingLength = -15;
inline constexpr int kDimensionError = -18;
inline constexpr int kBadMemoryOrder = -19;
inline constexpr int kDimNameRedefined = -20;
inline constexpr int kCharStringTooLong = -21;
inline constexpr int kNotSupported = -22;
inline constexpr int kNoop = -23;
inline constexpr int kBadFileStatus = -102;
inline constexpr int kBadDataType = -1007;
inline constexpr int kFileNotCommitted = -1008;
inline constexpr int kIoNotInitialized = -1010;
inline constexpr int kMdAfterOpen = -1011;  // an attribute after open_for_write_commit
inline constexpr int kDryRunClose = -1013;
inline constexpr int kDateStrBadLength = -1014;
inline constexpr int kDateStringError = -1017;
inline constexpr int kDryRunRead = -1018;
inline constexpr int kNetcdf = -1021;  // WRF's code for "the storage library failed"
inline constexpr int kLengthLessThan1 = -1022;
inline constexpr int kMoreDataInFile = -1023;
}  // namespace wrf_status

// FileStatus values of inquire_filename / inquire_opened.
namespace file_state {
inline constexpr int kNotOpened = 100;
inline constexpr int kOpenedNotCommitted = 101;  // training ("dry run") phase
inline constexpr int kOpenedForWrite = 102;
inline constexpr int kOpenedForRead = 103;
}  // namespace file_state

// FieldType arguments (and the FieldType attribute in the file).
namespace field_type {
inline constexpr int kReal = 104;
inline constexpr int kDouble = 105;
inline constexpr int kInteger = 106;
inline constexpr int kLogical = 107;  // stored as int 0/1, as WRF's own package does
}  // namespace field_type

// Markers WRF's I/O servers (PNETCDF_QUILT) put into write_field's arguments.
inline constexpr int kQuiltPatchMarker = -998899;     // MemoryStart(1): Field is exactly the patch
inline constexpr int kQuiltTrainingDomainDesc = 333933;  // DomainDesc of a server's training call

// An nwpio::Error that also says which WRF status the package returns for it. `quiet` marks
// answers that are part of WRF's normal protocol (no more times, an optional attribute that is
// not there): the status is returned without a message on stderr.
class WrfError : public Error {
 public:
  WrfError(int wrf_status, ErrorKind kind, const std::string& message, bool quiet = false)
      : Error(kind, message), wrf_status_(wrf_status), quiet_(quiet) {}
  int wrf_status() const noexcept { return wrf_status_; }
  bool quiet() const noexcept { return quiet_; }

 private:
  int wrf_status_;
  bool quiet_;
};

// The status the package returns for an error: a WrfError's own; otherwise by kind (argument
// and layout problems -> kDimensionError, call order -> kBadFileStatus, storage, MPI and
// configuration failures -> kNetcdf, WRF's catch-all for its storage library).
int wrf_status_of(const Error& error) noexcept;

// The error as a WrfError with that status (a copy; kept as WrfError, so that an error held in
// a variable of this type does not lose its status to slicing).
WrfError as_wrf_error(const Error& error);

}  // namespace nwpio::wrfio
