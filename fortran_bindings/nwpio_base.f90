! Shared pieces of the Fortran bindings: status and kind constants (the values of nwpio.h),
! the stream handle, and the one error path every entry point ends in: with ierr present the
! status goes to ierr; without it an error prints its message and calls MPI_Abort, as WRF's
! wrf_error_fatal does.
module nwpio_base
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: output_unit, error_unit
  use nwpio_c, only: c_last_error_copy, c_abort
  implicit none
  private

  ! Status codes (ierr values), as in nwpio.h.
  integer, parameter, public :: NWPIO_OK = 0
  integer, parameter, public :: NWPIO_ERR_INVALID_ARGUMENT = 1
  integer, parameter, public :: NWPIO_ERR_DECOMPOSITION = 2
  integer, parameter, public :: NWPIO_ERR_SCHEMA = 3
  integer, parameter, public :: NWPIO_ERR_STATE = 4
  integer, parameter, public :: NWPIO_ERR_CONFIG = 5
  integer, parameter, public :: NWPIO_ERR_IO = 6
  integer, parameter, public :: NWPIO_ERR_MPI = 7
  integer, parameter, public :: NWPIO_ERR_PNETCDF = 8
  integer, parameter, public :: NWPIO_ERR_NETCDF = 9
  integer, parameter, public :: NWPIO_ERR_UNSUPPORTED = 10
  integer, parameter, public :: NWPIO_ERR_INTERNAL = 11

  ! Element kinds of variables (nwpio_def_var) and arrays.
  integer, parameter, public :: NWPIO_REAL4 = 1
  integer, parameter, public :: NWPIO_REAL8 = 2
  integer, parameter, public :: NWPIO_INT4 = 3

  integer, parameter, public :: NWPIO_MAX_NAME = 256   ! NC_MAX_NAME
  integer, parameter, public :: NWPIO_DATE_LEN = 19    ! YYYY-MM-DD_HH:MM:SS

  ! One history stream. Not copyable in any useful sense: pass it around, do not assign it.
  type, public :: nwpio_stream
    type(c_ptr) :: handle = c_null_ptr
  end type nwpio_stream

  ! WRF's bounds of one rank, 1-based inclusive (ide = e_we), in nwpio_set_domain's order
  ! (nwpio_set_domain(s, b); module nwpio_model's nwpio_decompose fills one).
  type, bind(c), public :: nwpio_bounds
    integer(c_int) :: ids, ide, jds, jde, kds, kde
    integer(c_int) :: ims, ime, jms, jme, kms, kme
    integer(c_int) :: ips, ipe, jps, jpe, kps, kpe
  end type nwpio_bounds

  public :: nwpio_error_message, nwpio_error_text, c_string, finish, from_c_chars

contains

  ! A Fortran string as C wants it: trailing blanks dropped, NUL-terminated.
  pure function c_string(text) result(s)
    character(len=*), intent(in) :: text
    character(kind=c_char, len=len_trim(text) + 1) :: s
    s = trim(text) // c_null_char
  end function c_string

  ! C characters up to the first NUL, blank padded into `text`.
  subroutine from_c_chars(chars, text)
    character(kind=c_char), intent(in) :: chars(:)
    character(len=*), intent(out) :: text
    integer :: i
    text = ' '
    do i = 1, min(size(chars), len(text))
      if (chars(i) == c_null_char) exit
      text(i:i) = chars(i)
    end do
  end subroutine from_c_chars

  ! The text of the last error on this rank, blank padded (truncated to len(msg)).
  subroutine nwpio_error_message(msg)
    character(len=*), intent(out) :: msg
    character(kind=c_char) :: buf(len(msg) + 1)
    integer(c_size_t) :: n
    n = c_last_error_copy(buf, int(size(buf), c_size_t))
    call from_c_chars(buf, msg)
  end subroutine nwpio_error_message

  ! The whole text of the last error on this rank.
  function nwpio_error_text() result(msg)
    character(len=:), allocatable :: msg
    character(kind=c_char) :: probe(1)
    integer(c_size_t) :: n
    n = c_last_error_copy(probe, 1_c_size_t)
    allocate(character(len=int(n)) :: msg)
    call nwpio_error_message(msg)
  end function nwpio_error_text

  ! The end of every entry point: status to ierr, or fatal when ierr is absent.
  subroutine finish(status, handle, ierr)
    integer(c_int), intent(in) :: status
    type(c_ptr), intent(in) :: handle
    integer, intent(out), optional :: ierr
    if (present(ierr)) then
      ierr = int(status)
    else if (status /= NWPIO_OK) then
      flush(output_unit)
      flush(error_unit)
      call c_abort(handle, status)   ! prints "nwpio: <message>", MPI_Abort; does not return
    end if
  end subroutine finish
end module nwpio_base
