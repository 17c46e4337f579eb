! WRF's I/O API for io_form 11: time-independent attributes of one variable (description,
! units, stagger, coordinates, ...). put: in the training phase, after the variable's
! write_field; an empty text is stored as one NUL character, as WRF's own package does (ncdump
! shows ""). get: read from a file opened for reading. Logicals are stored as integer 0/1.

subroutine ext_pnc_put_var_ti_real(DataHandle, Element, Var, Data, Count, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element, Var
  real, intent(in) :: Data(*)
  integer, intent(out) :: Status
  Status = nwpio_wrfio_put_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_REAL, Data, Count)
end subroutine ext_pnc_put_var_ti_real

subroutine ext_pnc_put_var_ti_double(DataHandle, Element, Var, Data, Count, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element, Var
  real(kind=8), intent(in) :: Data(*)
  integer, intent(out) :: Status
  Status = nwpio_wrfio_put_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_DOUBLE, Data, Count)
end subroutine ext_pnc_put_var_ti_double

subroutine ext_pnc_put_var_ti_integer(DataHandle, Element, Var, Data, Count, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element, Var
  integer, intent(in) :: Data(*)
  integer, intent(out) :: Status
  Status = nwpio_wrfio_put_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_INT, Data, Count)
end subroutine ext_pnc_put_var_ti_integer

subroutine ext_pnc_put_var_ti_logical(DataHandle, Element, Var, Data, Count, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element, Var
  logical, intent(in) :: Data(*)
  integer, intent(out) :: Status
  integer :: values(max(Count, 1)), i
  do i = 1, Count
    values(i) = merge(1, 0, Data(i))
  end do
  Status = nwpio_wrfio_put_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_INT, values, Count)
end subroutine ext_pnc_put_var_ti_logical

subroutine ext_pnc_put_var_ti_char(DataHandle, Element, Var, Data, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, Var, Data
  integer, intent(out) :: Status
  Status = nwpio_wrfio_put_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_TEXT, Data, len(Data))
end subroutine ext_pnc_put_var_ti_char

subroutine ext_pnc_get_var_ti_real(DataHandle, Element, Var, Data, Count, OutCount, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element, Var
  real, intent(inout) :: Data(*)
  integer, intent(out) :: OutCount, Status
  Status = nwpio_wrfio_get_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_REAL, Data, Count, OutCount)
end subroutine ext_pnc_get_var_ti_real

subroutine ext_pnc_get_var_ti_double(DataHandle, Element, Var, Data, Count, OutCount, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element, Var
  real(kind=8), intent(inout) :: Data(*)
  integer, intent(out) :: OutCount, Status
  Status = nwpio_wrfio_get_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_DOUBLE, Data, Count, OutCount)
end subroutine ext_pnc_get_var_ti_double

subroutine ext_pnc_get_var_ti_integer(DataHandle, Element, Var, Data, Count, OutCount, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element, Var
  integer, intent(inout) :: Data(*)
  integer, intent(out) :: OutCount, Status
  Status = nwpio_wrfio_get_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_INT, Data, Count, OutCount)
end subroutine ext_pnc_get_var_ti_integer

subroutine ext_pnc_get_var_ti_logical(DataHandle, Element, Var, Data, Count, OutCount, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle, Count
  character(len=*), intent(in) :: Element, Var
  logical, intent(inout) :: Data(*)
  integer, intent(out) :: OutCount, Status
  integer :: values(max(Count, 1))
  Status = nwpio_wrfio_get_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_INT, values, Count, OutCount)
  Data(1:OutCount) = values(1:OutCount) == 1
end subroutine ext_pnc_get_var_ti_logical

subroutine ext_pnc_get_var_ti_char(DataHandle, Element, Var, Data, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Element, Var
  character(len=*), intent(inout) :: Data
  integer, intent(out) :: Status
  integer :: out_count
  Status = nwpio_wrfio_get_attribute(DataHandle, Var, len(Var), Element, len(Element), KIND_TEXT, Data, len(Data), out_count)
end subroutine ext_pnc_get_var_ti_char
