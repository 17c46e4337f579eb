# Every dependency comes from a Debian package; nothing is downloaded at build time.
find_package(MPI REQUIRED COMPONENTS C CXX Fortran)
find_package(PkgConfig REQUIRED)
find_package(toml11 REQUIRED)          # libtoml11-dev
find_package(nlohmann_json REQUIRED)   # nlohmann-json3-dev
find_package(fmt REQUIRED)             # libfmt-dev
find_package(CLI11 REQUIRED)           # libcli11-dev

include(NwpioNetcdf)                   # NWPIO_NETCDF: which netCDF-C (serial or MPI build)

set(NWPIO_HAVE_PNETCDF OFF)
if(NWPIO_WITH_PNETCDF)
  pkg_check_modules(PNETCDF IMPORTED_TARGET pnetcdf)   # libpnetcdf-dev
  if(PNETCDF_FOUND)
    set(NWPIO_HAVE_PNETCDF ON)
  else()
    message(WARNING "PnetCDF not found: building without io_form 11 (install libpnetcdf-dev)")
  endif()
endif()

find_program(NCVALIDATOR ncvalidator)   # pnetcdf-bin
find_program(NCDUMP ncdump)             # netcdf-bin
