! Stream options set after nwpio_open (before the first frame), over src/capi/capi_options.cpp.
! Part of module nwpio (re-exported there); kept apart from the stream calls.
module nwpio_options_m
  use, intrinsic :: iso_c_binding
  use nwpio_base, only: nwpio_stream, c_string, finish
  implicit none
  private
  public :: nwpio_set_hint_report

  interface
    function c_set_hint_report(stream, level) bind(c, name='nwpio_set_hint_report') result(rc)
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: stream
      character(kind=c_char), intent(in) :: level(*)
      integer(c_int) :: rc
    end function
  end interface

contains

  ! How much of the hint report rank 0 prints at each file open: 'summary' (one line per file,
  ! the default), 'full' (the table) or 'off'. Before the first nwpio_begin_frame, on every rank.
  ! Beats the namelist's &nwpio hint_report; the environment's NWPIO_HINT_REPORT beats it.
  subroutine nwpio_set_hint_report(s, level, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: level
    integer, intent(out), optional :: ierr
    call finish(c_set_hint_report(s%handle, c_string(level)), s%handle, ierr)
  end subroutine nwpio_set_hint_report

end module nwpio_options_m
