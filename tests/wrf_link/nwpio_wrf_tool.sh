#!/usr/bin/env bash
# nwpio-wrf on a miniature WRF tree laid out and linked as WRF's make build does it
# (configure.wrf with -DPNETCDF and WRF's LIB_EXTERNAL line, main/Makefile's em_wrf and
# em_ideal targets, external/io_pnetcdf/libwrfio_pnf.a defining ext_pnc_*, executables linked by
# mpif90): the real tree is exercised by scripts/cluster-check.sh; here every path of the tool is.
#   - status, link (shared), status, unlink, status: each executable takes the package named,
#     configure.wrf comes back byte for byte, nothing else of the tree changes;
#   - link --static: nwpio's package inside the executables (nm), libnwpio from the prefix;
#   - refusals (exit 2, the tree unchanged to the byte): no -DPNETCDF, LIB_EXTERNAL edited by
#     hand, no wrf.exe, a subdirectory given, a relink that would compile, an unknown command,
#     unlink of a tree never linked.
#   nwpio_wrf_tool.sh NWPIO_WRF NWPIO_LIB_DIR MPIF90 WORKDIR
set -euo pipefail
tool=$1 lib=$2 mpif90=$3 work=$4
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"

# ---- the miniature tree --------------------------------------------------------------------
make_tree() {  # make_tree DIR
  local t=$1
  mkdir -p "$t/inc" "$t/main" "$t/dyn_em" "$t/external/io_pnetcdf" "$t/run" "$t/pnetcdf/lib"
  # the PnetCDF WRF was configured with (a library of its own here; WRF's package needs nothing of it)
  echo 'subroutine pnetcdf_stub()
end subroutine pnetcdf_stub' >"$t/pnetcdf/stub.f90"
  (cd "$t/pnetcdf" && "$mpif90" -c stub.f90 && ar cr lib/libpnetcdf.a stub.o)
  echo "   CHARACTER (LEN=*), PARAMETER :: release_version = 'V4.7.1'" >"$t/inc/version_decl"
  cat >"$t/configure.wrf" <<EOF
# miniature configure.wrf
DM_FC           =       $mpif90
FC              =       \$(DM_FC)
LD              =       \$(FC)
RANLIB          =       ranlib
ARCHFLAGS       =    -DDWORDSIZE=8 \\
                      -DPNETCDF \\
                      -DLANDREAD_STUB=1

 LIB_EXTERNAL    = \\
                      -L\$(WRF_SRC_ROOT_DIR)/external/io_pnetcdf -lwrfio_pnf -L$t/pnetcdf/lib -lpnetcdf    

LIB             =    \$(LIB_EXTERNAL)
WRF_SRC_ROOT_DIR = $t
EOF
  # WRF's package, as external/io_pnetcdf builds it (a static archive of ext_pnc_*)
  cat >"$t/external/io_pnetcdf/wrf_io.f90" <<'EOF'
subroutine ext_pnc_ioinit(SysDepInfo, Status)
  character*(*), intent(in) :: SysDepInfo
  integer, intent(inout) :: Status
  Status = len(SysDepInfo)
end subroutine ext_pnc_ioinit
EOF
  (cd "$t/external/io_pnetcdf" && "$mpif90" -c wrf_io.f90 && ar cr libwrfio_pnf.a wrf_io.o && ranlib libwrfio_pnf.a)
  cat >"$t/main/wrf.f90" <<'EOF'
program wrf
  integer :: status
  call ext_pnc_ioinit('x', status)
end program wrf
EOF
  cat >"$t/main/ideal_em.f90" <<'EOF'
program ideal
  use module_initialize_ideal, only: init_domain
  integer :: status
  call init_domain()
  call ext_pnc_ioinit('ideal', status)
end program ideal
EOF
  cat >"$t/dyn_em/module_initialize_ideal.f90" <<'EOF'
module module_initialize_ideal
contains
  subroutine init_domain()
  end subroutine init_domain
end module module_initialize_ideal
EOF
  # -r, the targets and the variables nwpio-wrf passes, as WRF's main/Makefile has them
  cat >"$t/main/Makefile" <<'EOF'
include ../configure.wrf
$(SOLVER)_wrf : wrf.o
	$(LD) -o wrf.exe wrf.o $(LIB)
$(SOLVER)_ideal : ideal_$(SOLVER).o ../dyn_$(SOLVER)/module_initialize_$(IDEAL_CASE).o
	$(LD) -o ideal.exe ideal_$(SOLVER).o ../dyn_$(SOLVER)/module_initialize_$(IDEAL_CASE).o $(LIB)
wrf.o : wrf.f90
	$(FC) -c wrf.f90
ideal_$(SOLVER).o : ideal_$(SOLVER).f90 ../dyn_$(SOLVER)/module_initialize_$(IDEAL_CASE).o
	$(FC) -I../dyn_$(SOLVER) -c ideal_$(SOLVER).f90
../dyn_$(SOLVER)/module_initialize_$(IDEAL_CASE).o : ../dyn_$(SOLVER)/module_initialize_$(IDEAL_CASE).f90
	cd ../dyn_$(SOLVER) && $(FC) -c module_initialize_$(IDEAL_CASE).f90
EOF
  (cd "$t/main" && make -s -r SOLVER=em IDEAL_CASE=ideal em_wrf em_ideal >/dev/null)
  ln -sfn ../main/wrf.exe "$t/run/wrf.exe"
}
fingerprint() {  # every file of the tree with its checksum (symbolic links as their target)
  (cd "$1" && find . -type f ! -name '*.log' -print0 | sort -z | xargs -0 sha256sum; find . -type l -printf '%p -> %l\n' | sort)
}
expect_status() {  # expect_status TREE EXE TEXT
  local out
  out=$("$tool" status "$1")
  grep -qF "main/$2: $3" <<<"$out" || { echo "$out"; fail "status: $2 should say '$3'"; }
}
expect_refusal() {  # expect_refusal NAME TREE ARGS...: exit 2, a message, and the tree unchanged
  local name=$1 tree=$2 before rc=0 out
  shift 2
  before=$(fingerprint "$tree")
  out=$("$tool" "$@" 2>&1) || rc=$?
  ((rc == 2)) || { echo "$out"; fail "refusal '$name': exit $rc, expected 2"; }
  grep -q "nothing was changed" <<<"$out" || { echo "$out"; fail "refusal '$name': no message"; }
  [[ $(fingerprint "$tree") == "$before" ]] || fail "refusal '$name' changed the tree"
  echo "refused ($name): $(grep -m1 "error:" <<<"$out" | sed 's/^nwpio-wrf: error: //')"
}

make_tree "$work/WRF"
t=$work/WRF
original=$(sha256sum <"$t/configure.wrf")
expect_status "$t" wrf.exe "WRF's own io_form 11 package"
expect_status "$t" ideal.exe "WRF's own io_form 11 package"

# ---- link, shared --------------------------------------------------------------------------
"$tool" link --nwpio "$(dirname "$lib")" "$t" >link.log 2>&1 || { cat link.log; fail "link"; }
expect_status "$t" wrf.exe "nwpio's io_form 11 package, shared: $lib/libwrfio_pnf.so"
expect_status "$t" ideal.exe "nwpio's io_form 11 package, shared: $lib/libwrfio_pnf.so"
grep -q "^# nwpio-wrf: linked with nwpio" "$t/configure.wrf" || fail "configure.wrf has no mark"
grep -q -- "-L$lib -lwrfio_pnf -Wl,-rpath,$lib" "$t/configure.wrf" || fail "LIB_EXTERNAL does not name nwpio's package"
grep -q -- "-lpnetcdf" "$t/configure.wrf" && fail "WRF's -lpnetcdf is still linked beside nwpio's package"
[[ -f $t/configure.wrf.nwpio-backup && $(sha256sum <"$t/configure.wrf.nwpio-backup") == "$original" ]] ||
  fail "the backup is not WRF's configure.wrf"
[[ $(readlink -f "$t/run/wrf.exe") == "$t/main/wrf.exe" ]] || fail "run/wrf.exe no longer points at main/wrf.exe"
expect_refusal "unknown command" "$t" frob "$t"
linked=$(fingerprint "$t")
# a second link (here: again shared) keeps WRF's configure.wrf as the backup
"$tool" link --nwpio "$(dirname "$lib")" "$t" >relink.log 2>&1 || { cat relink.log; fail "link of a linked tree"; }
[[ $(sha256sum <"$t/configure.wrf.nwpio-backup") == "$original" ]] || fail "a second link replaced the backup"

# ---- unlink -----------------------------------------------------------------------------------
"$tool" unlink "$t" >unlink.log 2>&1 || { cat unlink.log; fail "unlink"; }
expect_status "$t" wrf.exe "WRF's own io_form 11 package"
expect_status "$t" ideal.exe "WRF's own io_form 11 package"
[[ $(sha256sum <"$t/configure.wrf") == "$original" ]] || fail "unlink did not restore configure.wrf byte for byte"
[[ ! -e $t/configure.wrf.nwpio-backup ]] || fail "unlink left the backup"
expect_refusal "unlink of a tree not linked" "$t" unlink "$t"

# ---- link, static ----------------------------------------------------------------------------
"$tool" link --static --nwpio "$(dirname "$lib")" "$t" >static.log 2>&1 || { cat static.log; fail "link --static"; }
expect_status "$t" wrf.exe "nwpio's io_form 11 package, linked in (static), over $lib/libnwpio.so"
nm "$t/main/wrf.exe" | grep -q " T nwpio_wrfio_ioinit$" || fail "--static: nwpio's package is not inside wrf.exe"
"$tool" unlink "$t" >/dev/null 2>&1 || fail "unlink after --static"
expect_status "$t" wrf.exe "WRF's own io_form 11 package"
[[ $(sha256sum <"$t/configure.wrf") == "$original" ]] || fail "unlink after --static did not restore configure.wrf"
[[ -n $linked ]]

# ---- refusals --------------------------------------------------------------------------------
expect_refusal "a subdirectory" "$t" link --nwpio "$(dirname "$lib")" "$t/main"
cp -a "$t" nopnetcdf
sed -i 's/-DPNETCDF/-DNOTHING/' nopnetcdf/configure.wrf
expect_refusal "no -DPNETCDF" "$work/nopnetcdf" link --nwpio "$(dirname "$lib")" "$work/nopnetcdf"
cp -a "$t" edited
# shellcheck disable=SC2016  # WRF's own make variable, literally
sed -i 's|-L$(WRF_SRC_ROOT_DIR)/external/io_pnetcdf -lwrfio_pnf|-L/elsewhere -lwrfio_pnf|' edited/configure.wrf
expect_refusal "LIB_EXTERNAL edited by hand" "$work/edited" link --nwpio "$(dirname "$lib")" "$work/edited"
cp -a "$t" notbuilt
rm notbuilt/main/wrf.exe
expect_refusal "no wrf.exe" "$work/notbuilt" link --nwpio "$(dirname "$lib")" "$work/notbuilt"
cp -a "$t" stale
touch -d '+1 hour' stale/main/wrf.f90
expect_refusal "a relink that would compile" "$work/stale" link --nwpio "$(dirname "$lib")" "$work/stale"
echo "PASS: nwpio-wrf links, reports, unlinks (shared and static) and refuses what it does not understand"
