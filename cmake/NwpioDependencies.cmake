# Every dependency comes from a Debian package; nothing is downloaded at build time.
find_package(MPI REQUIRED COMPONENTS C CXX Fortran)
find_package(PkgConfig REQUIRED)
find_package(netCDF REQUIRED)          # netCDF-C 4.9 (libnetcdf-dev) ships netCDFConfig.cmake
find_package(toml11 REQUIRED)          # libtoml11-dev
find_package(nlohmann_json REQUIRED)   # nlohmann-json3-dev
find_package(fmt REQUIRED)             # libfmt-dev
find_package(CLI11 REQUIRED)           # libcli11-dev

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
