// ROMIO reads the text before the first ':' of a path as a file-system prefix ("ufs:",
// "lustre:"), so MPI_File_open fails on WRF's dated names (wrfout_d01_2019-06-01_00:00:00) with
// an error that does not say why (netCDF-C: "Permission denied"). A stream that opens its files
// through MPI-IO and keeps ':' in them is refused before any file exists, with the way out.
#pragma once

#include <string>

namespace nwpio::detail {

// Throws Error(InvalidArgument) when ROMIO opens the files and `output_dir` / `file_name` (a
// sample of the stream's names) hold a ':'. `io_form` names the stream in the message.
void check_path_for_romio(const std::string& output_dir, const std::string& file_name, int io_form);

}  // namespace nwpio::detail
