! Module nwpio_model (libnwpio_model_fortran): helpers for WRF-like demo models such as
! examples/mini_wrf: the model's own settings from namelist.input (nwpio's reader), WRF's domain
! decomposition, and WRF date arithmetic, over libnwpio_model's C API (nwpio_model/nwpio_model.h).
! Errors end as in module nwpio: in ierr when present, else a message and MPI_Abort.
!   use nwpio_model        (pkg-config nwpio-modelf; CMake nwpio::model_fortran)
module nwpio_model
  use, intrinsic :: iso_c_binding
  use nwpio_base, only: c_string, finish, from_c_chars, NWPIO_DATE_LEN, nwpio_bounds
  implicit none
  private
  public :: nwpio_model_settings, nwpio_bounds, nwpio_read_model_settings, nwpio_decompose, nwpio_date_add

  type, bind(c) :: c_model_settings
    integer(c_int) :: max_dom, e_we, e_sn, e_vert, nproc_x, nproc_y
    real(c_double) :: dx, dy, time_step
    character(kind=c_char) :: start_date(20), end_date(20)
  end type c_model_settings

  interface
    function c_read_model_settings(comm, namelist_file, domain_id, settings) &
        bind(c, name='nwpio_read_model_settings') result(rc)
      import :: c_int, c_char, c_model_settings
      integer(c_int), value :: comm, domain_id
      character(kind=c_char), intent(in) :: namelist_file(*)
      type(c_model_settings), intent(out) :: settings
      integer(c_int) :: rc
    end function

    function c_wrf_decompose(e_we, e_sn, e_vert, nranks, rank, halo, nproc_x, nproc_y, bounds) &
        bind(c, name='nwpio_wrf_decompose') result(rc)
      import :: c_int
      integer(c_int), value :: e_we, e_sn, e_vert, nranks, rank, halo
      integer(c_int), intent(inout) :: nproc_x, nproc_y
      integer(c_int), intent(out) :: bounds(18)
      integer(c_int) :: rc
    end function

    function c_date_add_seconds(date, seconds, out) bind(c, name='nwpio_date_add_seconds') result(rc)
      import :: c_int, c_char, c_int64_t
      character(kind=c_char), intent(in) :: date(*)
      integer(c_int64_t), value :: seconds
      character(kind=c_char), intent(out) :: out(*)
      integer(c_int) :: rc
    end function
  end interface

  ! &domains and &time_control settings of one domain.
  type :: nwpio_model_settings
    integer :: max_dom = 1
    integer :: e_we = 0, e_sn = 0, e_vert = 0   ! staggered counts
    integer :: nproc_x = -1, nproc_y = -1       ! -1: choose as WRF does
    real(c_double) :: dx = 0, dy = 0            ! metres
    real(c_double) :: time_step = 0             ! seconds
    character(len=NWPIO_DATE_LEN) :: start_date = ' ', end_date = ' '
  end type nwpio_model_settings

contains

  ! Collective over comm (a Fortran MPI communicator, e.g. MPI_COMM_WORLD).
  subroutine nwpio_read_model_settings(comm, namelist_file, domain_id, settings, ierr)
    integer, intent(in) :: comm, domain_id
    character(len=*), intent(in) :: namelist_file
    type(nwpio_model_settings), intent(out) :: settings
    integer, intent(out), optional :: ierr
    type(c_model_settings) :: c
    integer(c_int) :: rc
    rc = c_read_model_settings(int(comm, c_int), c_string(namelist_file), int(domain_id, c_int), c)
    if (rc == 0) then
      settings%max_dom = c%max_dom
      settings%e_we = c%e_we
      settings%e_sn = c%e_sn
      settings%e_vert = c%e_vert
      settings%nproc_x = c%nproc_x
      settings%nproc_y = c%nproc_y
      settings%dx = c%dx
      settings%dy = c%dy
      settings%time_step = c%time_step
      call from_c_chars(c%start_date, settings%start_date)
      call from_c_chars(c%end_date, settings%end_date)
    end if
    call finish(rc, c_null_ptr, ierr)
  end subroutine nwpio_read_model_settings

  ! WRF's decomposition: bounds of `rank` (0-based, x fastest) for a domain of e_we x e_sn x
  ! e_vert over nproc_x x nproc_y tasks. nproc_x = nproc_y = -1 on entry: chosen as WRF does
  ! (the most nearly square split); one of them -1: the ranks divided by the other. On return
  ! both hold the split used. halo: memory halo on each side (default 3).
  subroutine nwpio_decompose(e_we, e_sn, e_vert, nranks, rank, nproc_x, nproc_y, bounds, ierr, halo)
    integer, intent(in) :: e_we, e_sn, e_vert, nranks, rank
    integer, intent(inout) :: nproc_x, nproc_y
    type(nwpio_bounds), intent(out) :: bounds
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: halo
    integer(c_int) :: b(18), nx, ny, h, rc
    h = 3
    if (present(halo)) h = int(halo, c_int)
    nx = int(nproc_x, c_int)
    ny = int(nproc_y, c_int)
    b = 0
    rc = c_wrf_decompose(int(e_we, c_int), int(e_sn, c_int), int(e_vert, c_int), int(nranks, c_int), &
                         int(rank, c_int), h, nx, ny, b)
    bounds = nwpio_bounds(b(1), b(2), b(3), b(4), b(5), b(6), b(7), b(8), b(9), &
                          b(10), b(11), b(12), b(13), b(14), b(15), b(16), b(17), b(18))
    if (rc == 0) then
      nproc_x = nx
      nproc_y = ny
    end if
    call finish(rc, c_null_ptr, ierr)
  end subroutine nwpio_decompose

  ! new_date = date + seconds (WRF dates, YYYY-MM-DD_HH:MM:SS).
  subroutine nwpio_date_add(date, seconds, new_date, ierr)
    character(len=*), intent(in) :: date
    integer, intent(in) :: seconds
    character(len=*), intent(out) :: new_date
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: out(NWPIO_DATE_LEN + 1)
    integer(c_int) :: rc
    out = c_null_char
    rc = c_date_add_seconds(c_string(date), int(seconds, c_int64_t), out)
    call from_c_chars(out, new_date)
    call finish(rc, c_null_ptr, ierr)
  end subroutine nwpio_date_add
end module nwpio_model
