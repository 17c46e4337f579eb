! WRF's I/O API for io_form 11: time-independent global attributes ("domain metadata").
! put: recorded in the training phase, ignored after commit (WRF repeats them every frame, and
! its own package ignores them then too). get: read from a file opened for reading.
! Logicals are stored as integer 0/1, as WRF's own package does.

subroutine ext_pnc_put_dom_ti_real(DataHandle, Element, Data, Count, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element
  real, intent(in) :: Data(*)
  integer, intent(out) :: Status
  Status = nwpio_wrfio_put_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_REAL, Data, Count)
end subroutine ext_pnc_put_dom_ti_real

subroutine ext_pnc_put_dom_ti_double(DataHandle, Element, Data, Count, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element
  real(kind=8), intent(in) :: Data(*)
  integer, intent(out) :: Status
  Status = nwpio_wrfio_put_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_DOUBLE, Data, Count)
end subroutine ext_pnc_put_dom_ti_double

subroutine ext_pnc_put_dom_ti_integer(DataHandle, Element, Data, Count, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element
  integer, intent(in) :: Data(*)
  integer, intent(out) :: Status
  Status = nwpio_wrfio_put_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_INT, Data, Count)
end subroutine ext_pnc_put_dom_ti_integer

subroutine ext_pnc_put_dom_ti_logical(DataHandle, Element, Data, Count, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element
  logical, intent(in) :: Data(*)
  integer, intent(out) :: Status
  integer :: values(max(Count, 1)), i
  do i = 1, Count
    values(i) = merge(1, 0, Data(i))
  end do
  Status = nwpio_wrfio_put_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_INT, values, Count)
end subroutine ext_pnc_put_dom_ti_logical

subroutine ext_pnc_put_dom_ti_char(DataHandle, Element, Data, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, Data
  integer, intent(out) :: Status
  Status = nwpio_wrfio_put_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_TEXT, Data, len(Data))
end subroutine ext_pnc_put_dom_ti_char

subroutine ext_pnc_get_dom_ti_real(DataHandle, Element, Data, Count, OutCount, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element
  real, intent(inout) :: Data(*)
  integer, intent(out) :: OutCount, Status
  Status = nwpio_wrfio_get_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_REAL, Data, Count, OutCount)
end subroutine ext_pnc_get_dom_ti_real

subroutine ext_pnc_get_dom_ti_double(DataHandle, Element, Data, Count, OutCount, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element
  real(kind=8), intent(inout) :: Data(*)
  integer, intent(out) :: OutCount, Status
  Status = nwpio_wrfio_get_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_DOUBLE, Data, Count, OutCount)
end subroutine ext_pnc_get_dom_ti_double

subroutine ext_pnc_get_dom_ti_integer(DataHandle, Element, Data, Count, OutCount, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element
  integer, intent(inout) :: Data(*)
  integer, intent(out) :: OutCount, Status
  Status = nwpio_wrfio_get_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_INT, Data, Count, OutCount)
end subroutine ext_pnc_get_dom_ti_integer

subroutine ext_pnc_get_dom_ti_logical(DataHandle, Element, Data, Count, OutCount, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element
  logical, intent(inout) :: Data(*)
  integer, intent(out) :: OutCount, Status
  integer :: values(max(Count, 1))
  Status = nwpio_wrfio_get_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_INT, values, Count, OutCount)
  Data(1:OutCount) = values(1:OutCount) == 1
end subroutine ext_pnc_get_dom_ti_logical

subroutine ext_pnc_get_dom_ti_char(DataHandle, Element, Data, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element
  character(len=*), intent(inout) :: Data
  integer, intent(out) :: Status
  integer :: out_count
  Status = nwpio_wrfio_get_attribute(DataHandle, ' ', 0, Element, len(Element), KIND_TEXT, Data, len(Data), out_count)
end subroutine ext_pnc_get_dom_ti_char
