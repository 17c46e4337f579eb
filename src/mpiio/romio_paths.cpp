#include "mpiio/romio_paths.hpp"

#include <filesystem>

#include "mpiio/mpiio_layer.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {

void check_path_for_romio(const std::string& output_dir, const std::string& file_name, int io_form) {
  const MpiIo io = detect_mpiio();
  if (io.layer != IoLayer::Romio) return;
  const bool in_dir = output_dir.find(':') != std::string::npos;
  if (!in_dir && file_name.find(':') == std::string::npos) return;
  const std::string path = (std::filesystem::path(output_dir) / file_name).string();
  throw Error(ErrorKind::InvalidArgument,
              "io_form " + std::to_string(io_form) + " opens its files through MPI-IO, and " + io.component +
                  " (ROMIO) reads the text before the first ':' of '" + path +
                  "' as a file-system prefix: the file cannot be created. " +
                  (in_dir ? "Use an output_dir without ':'"
                          : "Set nocolons = .true. (&time_control: ':' becomes '_', as in io_form 11 names)") +
                  ", or Open MPI's OMPIO (OMPI_MCA_io unset)");
}

}  // namespace nwpio::detail
