! WRF's I/O API for io_form 11: time-dependent attributes. WRF 4.7.1 reaches them only for
! lateral boundary files (THISBDYTIME/NEXTBDYTIME), which this package does not write; they
! answer WRF_WARN_NOOP ("package implements this routine as NOOP"), as WRF's status codes allow.

subroutine ext_pnc_put_dom_td_real(DataHandle, Element, DateStr, Data, Count, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  real, intent(in) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_dom_td_real

subroutine ext_pnc_put_dom_td_double(DataHandle, Element, DateStr, Data, Count, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  real(kind=8), intent(in) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_dom_td_double

subroutine ext_pnc_put_dom_td_integer(DataHandle, Element, DateStr, Data, Count, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  integer, intent(in) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_dom_td_integer

subroutine ext_pnc_put_dom_td_logical(DataHandle, Element, DateStr, Data, Count, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  logical, intent(in) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_dom_td_logical

subroutine ext_pnc_put_dom_td_char(DataHandle, Element, DateStr, Data, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  character(len=*), intent(in) :: Data
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_dom_td_char

subroutine ext_pnc_put_var_td_real(DataHandle, Element, DateStr, Var, Data, Count, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  real, intent(in) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_var_td_real

subroutine ext_pnc_put_var_td_double(DataHandle, Element, DateStr, Var, Data, Count, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  real(kind=8), intent(in) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_var_td_double

subroutine ext_pnc_put_var_td_integer(DataHandle, Element, DateStr, Var, Data, Count, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  integer, intent(in) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_var_td_integer

subroutine ext_pnc_put_var_td_logical(DataHandle, Element, DateStr, Var, Data, Count, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  logical, intent(in) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_var_td_logical

subroutine ext_pnc_put_var_td_char(DataHandle, Element, DateStr, Var, Data, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  character(len=*), intent(in) :: Data
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_put_var_td_char

subroutine ext_pnc_get_dom_td_real(DataHandle, Element, DateStr, Data, Count, OutCount, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  real, intent(inout) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: OutCount
  integer, intent(out) :: Status
  OutCount = 0
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_dom_td_real

subroutine ext_pnc_get_dom_td_double(DataHandle, Element, DateStr, Data, Count, OutCount, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  real(kind=8), intent(inout) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: OutCount
  integer, intent(out) :: Status
  OutCount = 0
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_dom_td_double

subroutine ext_pnc_get_dom_td_integer(DataHandle, Element, DateStr, Data, Count, OutCount, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  integer, intent(inout) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: OutCount
  integer, intent(out) :: Status
  OutCount = 0
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_dom_td_integer

subroutine ext_pnc_get_dom_td_logical(DataHandle, Element, DateStr, Data, Count, OutCount, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  logical, intent(inout) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: OutCount
  integer, intent(out) :: Status
  OutCount = 0
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_dom_td_logical

subroutine ext_pnc_get_dom_td_char(DataHandle, Element, DateStr, Data, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr
  character(len=*), intent(inout) :: Data
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_dom_td_char

subroutine ext_pnc_get_var_td_real(DataHandle, Element, DateStr, Var, Data, Count, OutCount, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  real, intent(inout) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: OutCount
  integer, intent(out) :: Status
  OutCount = 0
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_var_td_real

subroutine ext_pnc_get_var_td_double(DataHandle, Element, DateStr, Var, Data, Count, OutCount, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  real(kind=8), intent(inout) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: OutCount
  integer, intent(out) :: Status
  OutCount = 0
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_var_td_double

subroutine ext_pnc_get_var_td_integer(DataHandle, Element, DateStr, Var, Data, Count, OutCount, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  integer, intent(inout) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: OutCount
  integer, intent(out) :: Status
  OutCount = 0
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_var_td_integer

subroutine ext_pnc_get_var_td_logical(DataHandle, Element, DateStr, Var, Data, Count, OutCount, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  logical, intent(inout) :: Data(*)
  integer, intent(in) :: Count
  integer, intent(out) :: OutCount
  integer, intent(out) :: Status
  OutCount = 0
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_var_td_logical

subroutine ext_pnc_get_var_td_char(DataHandle, Element, DateStr, Var, Data, Status)
  use nwpio_wrfio_c, only: WRF_WARN_NOOP
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, DateStr, Var
  character(len=*), intent(inout) :: Data
  integer, intent(out) :: Status
  Status = WRF_WARN_NOOP
end subroutine ext_pnc_get_var_td_char
