! Fortran module nwpio (layer L5): parallel WRF history output for Fortran models, over nwpio's
! C API (ISO_C_BINDING; value arguments, NUL-terminated strings). WRF's 1-based inclusive
! bounds are passed as the model has them and converted once, in C.
!
!   use nwpio
!   type(nwpio_stream) :: s
!   call nwpio_open(s, comm, 'namelist.input', domain_id, ierr)   ! optional: output_dir='dir'
!   call nwpio_set_hint_report(s, 'full', ierr)                   ! optional: 'summary' (default), 'off'
!   call nwpio_set_domain(s, ids,ide, jds,jde, kds,kde, ims,ime, jms,jme, kms,kme, &
!                         ips,ipe, jps,jpe, kps,kpe, ierr)
!   call nwpio_def_var(s, 'U', NWPIO_REAL4, 'XZY', 'X', 'x-wind component', 'm s-1', ierr)
!   call nwpio_put_global_att(s, 'TITLE', ' OUTPUT FROM MY MODEL', ierr)
!   do ... model loop
!     call nwpio_output_due(s, date, due, ierr)
!     if (due) then
!       call nwpio_begin_frame(s, date, ierr)
!       call nwpio_write(s, 'U', u, ierr)        ! u(ims:ime,kms:kme,jms:jme), kept until end_frame
!       call nwpio_end_frame(s, ierr)
!     end if
!   end do
!   call nwpio_close(s, ierr)
!
! ierr is optional everywhere: when absent, an error prints its message and calls MPI_Abort
! (as wrf_error_fatal). With ierr, nwpio_error_message(msg) gives the reason.
! A demo model's own namelist settings, WRF's decomposition and date arithmetic are in module
! nwpio_model (libnwpio_model_fortran, pkg-config nwpio-modelf).
module nwpio
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: int32, real32, real64
  use nwpio_c
  use nwpio_base
  use nwpio_write_m
  use nwpio_options_m
  implicit none
  private

  ! Re-exported from the pieces.
  public :: nwpio_stream, nwpio_bounds, nwpio_write, nwpio_error_message, nwpio_error_text
  public :: NWPIO_OK, NWPIO_ERR_INVALID_ARGUMENT, NWPIO_ERR_DECOMPOSITION, NWPIO_ERR_SCHEMA, &
            NWPIO_ERR_STATE, NWPIO_ERR_CONFIG, NWPIO_ERR_IO, NWPIO_ERR_MPI, NWPIO_ERR_PNETCDF, &
            NWPIO_ERR_NETCDF, NWPIO_ERR_UNSUPPORTED, NWPIO_ERR_INTERNAL
  public :: NWPIO_REAL4, NWPIO_REAL8, NWPIO_INT4, NWPIO_MAX_NAME, NWPIO_DATE_LEN

  public :: nwpio_set_hint_report
  public :: nwpio_open, nwpio_set_domain, nwpio_def_dim, nwpio_def_var, nwpio_put_global_att, &
            nwpio_output_due, nwpio_begin_frame, nwpio_end_frame, nwpio_close
  public :: nwpio_servers_start, nwpio_servers_stop

  interface nwpio_set_domain
    module procedure set_domain_bounds, set_domain_type
  end interface nwpio_set_domain

  interface nwpio_put_global_att
    module procedure att_int, att_int_1d, att_real4, att_real4_1d, att_real8, att_real8_1d, att_text
  end interface nwpio_put_global_att

contains

  ! Collective over world. I/O servers from &namelist_quilt (nio_tasks_per_group, nio_groups):
  ! the last nio_groups x nio_tasks_per_group ranks serve, inside this call, until the compute
  ! ranks call nwpio_servers_stop; they return with is_server = .true. and should finalize.
  ! The other ranks return at once with compute_comm, the model's communicator (world itself
  ! when the namelist asks for no servers). Streams opened on compute_comm go to the servers.
  subroutine nwpio_servers_start(world, namelist_file, is_server, compute_comm, ierr)
    integer, intent(in) :: world
    character(len=*), intent(in) :: namelist_file
    logical, intent(out) :: is_server
    integer, intent(out) :: compute_comm
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc, served, comm
    served = 0
    comm = 0
    rc = c_servers_start_f(int(world, c_int), c_string(namelist_file), served, comm)
    is_server = served /= 0
    compute_comm = int(comm)
    call finish(rc, c_null_ptr, ierr)
  end subroutine nwpio_servers_start

  ! Collective over the compute ranks, after every stream was closed: the servers return.
  subroutine nwpio_servers_stop(ierr)
    integer, intent(out), optional :: ierr
    call finish(c_servers_stop(), c_null_ptr, ierr)
  end subroutine nwpio_servers_stop

  ! Collective. The history stream of `domain_id` as namelist_file describes it. comm: a Fortran
  ! MPI communicator. output_dir (optional) overrides the namelist's output directory.
  subroutine nwpio_open(s, comm, namelist_file, domain_id, ierr, output_dir)
    type(nwpio_stream), intent(out) :: s
    integer, intent(in) :: comm, domain_id
    character(len=*), intent(in) :: namelist_file
    integer, intent(out), optional :: ierr
    character(len=*), intent(in), optional :: output_dir
    integer(c_int) :: rc
    if (present(output_dir)) then
      rc = c_open_f(s%handle, int(comm, c_int), c_string(namelist_file), int(domain_id, c_int), &
                    c_string(output_dir))
    else
      rc = c_open_f(s%handle, int(comm, c_int), c_string(namelist_file), int(domain_id, c_int), c_string(''))
    end if
    call finish(rc, c_null_ptr, ierr)
  end subroutine nwpio_open

  ! Collective. WRF's bounds, 1-based inclusive, ide = e_we (the staggered count).
  subroutine set_domain_bounds(s, ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, &
                               ips, ipe, jps, jpe, kps, kpe, ierr)
    type(nwpio_stream), intent(in) :: s
    integer, intent(in) :: ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, &
                           ips, ipe, jps, jpe, kps, kpe
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc
    rc = c_set_domain(s%handle, ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, &
                      ips, ipe, jps, jpe, kps, kpe)
    call finish(rc, s%handle, ierr)
  end subroutine set_domain_bounds

  subroutine set_domain_type(s, b, ierr)
    type(nwpio_stream), intent(in) :: s
    type(nwpio_bounds), intent(in) :: b
    integer, intent(out), optional :: ierr
    call set_domain_bounds(s, b%ids, b%ide, b%jds, b%jde, b%kds, b%kde, b%ims, b%ime, b%jms, b%jme, &
                           b%kms, b%kme, b%ips, b%ipe, b%jps, b%jpe, b%kps, b%kpe, ierr)
  end subroutine set_domain_type

  ! An extra non-decomposed dimension (e.g. soil_layers_stag) for nwpio_def_var's dim argument.
  subroutine nwpio_def_dim(s, name, length, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    integer, intent(in) :: length
    integer, intent(out), optional :: ierr
    call finish(c_def_dim(s%handle, c_string(name), int(length, c_int64_t)), s%handle, ierr)
  end subroutine nwpio_def_dim

  ! A variable with WRF's attributes. kind: NWPIO_REAL4, NWPIO_REAL8, NWPIO_INT4;
  ! memory_order: 'XZY', 'XYZ', 'XY', 'Z', 'C' (as 'Z'), '0'; stagger: '', 'X', 'Y', 'Z', 'XY'
  ! (read by the C API: the spellings of WRF's I/O API, case and blanks do not matter).
  ! dim (optional): the vertical axis is this dimension from nwpio_def_dim (array 1:length)
  ! instead of the model's kms:kme, e.g. soil fields over 'soil_layers_stag'.
  subroutine nwpio_def_var(s, name, kind, memory_order, stagger, description, units, ierr, dim)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name, memory_order, stagger, description, units
    integer, intent(in) :: kind
    integer, intent(out), optional :: ierr
    character(len=*), intent(in), optional :: dim
    integer(c_int) :: rc
    if (present(dim)) then
      rc = c_def_var_dim(s%handle, c_string(name), int(kind, c_int), c_string(memory_order), c_string(stagger), &
                         c_string(description), c_string(units), c_string(dim))
    else
      rc = c_def_var_dim(s%handle, c_string(name), int(kind, c_int), c_string(memory_order), c_string(stagger), &
                         c_string(description), c_string(units), c_string(''))
    end if
    call finish(rc, s%handle, ierr)
  end subroutine nwpio_def_var

  ! ---- global attributes (before the first nwpio_begin_frame) ----------------------------
  subroutine att_int(s, name, value, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    integer(int32), intent(in) :: value
    integer, intent(out), optional :: ierr
    call att_int_1d(s, name, [value], ierr)
  end subroutine att_int

  subroutine att_int_1d(s, name, values, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    integer(int32), intent(in) :: values(:)
    integer, intent(out), optional :: ierr
    integer(c_int32_t) :: v(size(values))
    v = values
    call finish(c_put_att_int(s%handle, c_string(name), v, int(size(v), c_int)), s%handle, ierr)
  end subroutine att_int_1d

  subroutine att_real4(s, name, value, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real32), intent(in) :: value
    integer, intent(out), optional :: ierr
    call att_real4_1d(s, name, [value], ierr)
  end subroutine att_real4

  subroutine att_real4_1d(s, name, values, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real32), intent(in) :: values(:)
    integer, intent(out), optional :: ierr
    real(c_float) :: v(size(values))
    v = values
    call finish(c_put_att_float(s%handle, c_string(name), v, int(size(v), c_int)), s%handle, ierr)
  end subroutine att_real4_1d

  subroutine att_real8(s, name, value, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real64), intent(in) :: value
    integer, intent(out), optional :: ierr
    call att_real8_1d(s, name, [value], ierr)
  end subroutine att_real8

  subroutine att_real8_1d(s, name, values, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real64), intent(in) :: values(:)
    integer, intent(out), optional :: ierr
    real(c_double) :: v(size(values))
    v = values
    call finish(c_put_att_double(s%handle, c_string(name), v, int(size(v), c_int)), s%handle, ierr)
  end subroutine att_real8_1d

  ! Text attributes keep their trailing blanks out (WRF's TITLE starts with a blank, kept).
  subroutine att_text(s, name, value, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name, value
    integer, intent(out), optional :: ierr
    call finish(c_put_att_text(s%handle, c_string(name), c_string(value)), s%handle, ierr)
  end subroutine att_text

  ! ---- frames ---------------------------------------------------------------------------
  ! Local and cheap: is `date` (YYYY-MM-DD_HH:MM:SS) an output time of this stream?
  subroutine nwpio_output_due(s, date, due, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: date
    logical, intent(out) :: due
    integer, intent(out), optional :: ierr
    integer(c_int) :: d, rc
    d = 0
    rc = c_output_due(s%handle, c_string(date), d)
    due = d /= 0
    call finish(rc, s%handle, ierr)
  end subroutine nwpio_output_due

  ! Collective. The first call ends the definitions (set_domain, def_var, global attributes).
  subroutine nwpio_begin_frame(s, date, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: date
    integer, intent(out), optional :: ierr
    call finish(c_begin_frame(s%handle, c_string(date)), s%handle, ierr)
  end subroutine nwpio_begin_frame

  ! Collective. Writes the frame; the arrays handed to nwpio_write may change again after it.
  subroutine nwpio_end_frame(s, ierr)
    type(nwpio_stream), intent(in) :: s
    integer, intent(out), optional :: ierr
    call finish(c_end_frame(s%handle), s%handle, ierr)
  end subroutine nwpio_end_frame

  ! Collective. Closes the file and frees the stream (also when closing fails).
  subroutine nwpio_close(s, ierr)
    type(nwpio_stream), intent(inout) :: s
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc
    rc = c_close(s%handle)
    call finish(rc, c_null_ptr, ierr)
  end subroutine nwpio_close
end module nwpio
