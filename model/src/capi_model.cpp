// The C API of libnwpio_model (nwpio_model/nwpio_model.h): the model's own namelist settings,
// WRF's decomposition and date arithmetic for WRF-like models written in C or Fortran. Errors
// go through libnwpio's C boundary (capi::guard), so nwpio_last_error() reports them.
#include <algorithm>
#include <cstring>
#include <string>

#include "capi/capi_error.hpp"
#include "nwpio/nwpio.h"
#include "nwpio/wrf_date.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio_model/model_settings.hpp"
#include "nwpio_model/nwpio_model.h"

namespace {

void copy_date(char* out, const std::string& date) {
  const std::size_t n = std::min<std::size_t>(date.size(), NWPIO_DATE_LEN);
  std::memcpy(out, date.data(), n);
  out[n] = '\0';
}

}  // namespace

extern "C" {

int nwpio_read_model_settings(MPI_Fint comm, const char* namelist_file, int domain_id,
                              nwpio_model_settings* settings) {
  using namespace nwpio;
  return capi::guard("nwpio_read_model_settings", [&] {
    if (settings == nullptr) throw Error(ErrorKind::InvalidArgument, "settings is NULL");
    if (namelist_file == nullptr) throw Error(ErrorKind::InvalidArgument, "namelist file name is NULL");
    const ModelSettings m = read_model_settings(namelist_file, domain_id, MPI_Comm_f2c(comm));
    *settings = nwpio_model_settings{};
    settings->max_dom = m.max_dom;
    settings->e_we = m.e_we;
    settings->e_sn = m.e_sn;
    settings->e_vert = m.e_vert;
    settings->nproc_x = m.nproc_x;
    settings->nproc_y = m.nproc_y;
    settings->dx = m.dx;
    settings->dy = m.dy;
    settings->time_step = m.time_step;
    copy_date(settings->start_date, m.start_date);
    copy_date(settings->end_date, m.end_date);
  });
}

int nwpio_wrf_decompose(int e_we, int e_sn, int e_vert, int nranks, int rank, int halo, int* nproc_x,
                        int* nproc_y, int bounds[18]) {
  using namespace nwpio;
  return capi::guard("nwpio_wrf_decompose", [&] {
    if (nproc_x == nullptr || nproc_y == nullptr || bounds == nullptr) {
      throw Error(ErrorKind::InvalidArgument, "nproc_x, nproc_y or bounds is NULL");
    }
    if (nranks < 1 || rank < 0 || rank >= nranks) {
      throw Error(ErrorKind::InvalidArgument,
                  "rank " + std::to_string(rank) + " of " + std::to_string(nranks) + " ranks is out of range");
    }
    int nx = *nproc_x, ny = *nproc_y;
    if (nx <= 0 && ny <= 0) {
      std::tie(nx, ny) = wrf::choose_nproc(nranks);  // WRF's MPASPECT
    } else if (nx <= 0 || ny <= 0) {
      const int given = nx > 0 ? nx : ny;
      if (nranks % given != 0) {
        throw Error(ErrorKind::Decomposition, "nproc_x/nproc_y = " + std::to_string(given) + " does not divide " +
                                                  std::to_string(nranks) + " ranks");
      }
      (nx > 0 ? ny : nx) = nranks / given;
    }
    if (nx * ny != nranks) {
      throw Error(ErrorKind::Decomposition, "nproc_x * nproc_y = " + std::to_string(nx) + " * " + std::to_string(ny) +
                                                " but the run has " + std::to_string(nranks) + " ranks");
    }
    const WrfBounds b = wrf::split_domain(e_we, e_sn, e_vert, nx, ny, rank, halo);
    const int v[18] = {b.ids, b.ide, b.jds, b.jde, b.kds, b.kde, b.ims, b.ime, b.jms,
                       b.jme, b.kms, b.kme, b.ips, b.ipe, b.jps, b.jpe, b.kps, b.kpe};
    std::copy(v, v + 18, bounds);
    *nproc_x = nx;
    *nproc_y = ny;
  });
}

int nwpio_date_add_seconds(const char* date, int64_t seconds, char* out) {
  using namespace nwpio;
  return capi::guard("nwpio_date_add_seconds", [&] {
    if (out == nullptr) throw Error(ErrorKind::InvalidArgument, "output buffer is NULL");
    copy_date(out, wrf::add_seconds(capi::checked_date(date), seconds));
  });
}

}  // extern "C"
