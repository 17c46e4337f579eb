! WRF's I/O API for io_form 11, the field and time entry points.
!
! Field is WRF's memory array of any type (FieldType 104 real, 105 double, 106 integer, 107
! logical); it is declared integer here as in WRF's own package and handed on as an address.
! Bounds are WRF's, 1-based and inclusive, in MemoryOrder.

subroutine ext_pnc_write_field(DataHandle, DateStr, Var, Field, FieldType, Comm, IOComm, DomainDesc, &
                               MemoryOrdIn, Stagger, DimNames, DomainStart, DomainEnd, MemoryStart, MemoryEnd, &
                               PatchStart, PatchEnd, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: DateStr, Var
  integer, intent(inout) :: Field(*)
  integer, intent(in) :: FieldType
  integer, intent(inout) :: Comm, IOComm
  integer, intent(in) :: DomainDesc
  character(len=*), intent(in) :: MemoryOrdIn, Stagger
  character(len=*), dimension(*), intent(in) :: DimNames
  integer, dimension(*), intent(in) :: DomainStart, DomainEnd, MemoryStart, MemoryEnd, PatchStart, PatchEnd
  integer, intent(out) :: Status
  if (Comm < 0 .and. IOComm < 0) continue  ! the file's communicator came with open_for_write_begin
  Status = nwpio_wrfio_write_field(DataHandle, DateStr, len(DateStr), Var, len(Var), Field, FieldType, DomainDesc, &
                                   MemoryOrdIn, len(MemoryOrdIn), Stagger, len(Stagger), DimNames, len(DimNames), &
                                   DomainStart(1:3), DomainEnd(1:3), MemoryStart(1:3), MemoryEnd(1:3), &
                                   PatchStart(1:3), PatchEnd(1:3))
end subroutine ext_pnc_write_field

subroutine ext_pnc_read_field(DataHandle, DateStr, Var, Field, FieldType, Comm, IOComm, DomainDesc, &
                              MemoryOrdIn, Stagger, DimNames, DomainStart, DomainEnd, MemoryStart, MemoryEnd, &
                              PatchStart, PatchEnd, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: DateStr, Var
  integer, intent(out) :: Field(*)
  integer, intent(in) :: FieldType
  integer, intent(inout) :: Comm, IOComm
  integer, intent(in) :: DomainDesc
  character(len=*), intent(in) :: MemoryOrdIn, Stagger
  character(len=*), dimension(*), intent(in) :: DimNames
  integer, dimension(*), intent(in) :: DomainStart, DomainEnd, MemoryStart, MemoryEnd, PatchStart, PatchEnd
  integer, intent(out) :: Status
  if (Comm < 0 .and. IOComm < 0 .and. DomainDesc < 0) continue
  Status = nwpio_wrfio_read_field(DataHandle, DateStr, len(DateStr), Var, len(Var), Field, FieldType, &
                                  MemoryOrdIn, len(MemoryOrdIn), Stagger, len(Stagger), DimNames, len(DimNames), &
                                  DomainStart(1:3), DomainEnd(1:3), MemoryStart(1:3), MemoryEnd(1:3), &
                                  PatchStart(1:3), PatchEnd(1:3))
end subroutine ext_pnc_read_field

subroutine ext_pnc_get_next_time(DataHandle, DateStr, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(out) :: DateStr
  integer, intent(out) :: Status
  Status = nwpio_wrfio_get_next_time(DataHandle, DateStr, len(DateStr))
end subroutine ext_pnc_get_next_time

subroutine ext_pnc_get_previous_time(DataHandle, DateStr, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(out) :: DateStr
  integer, intent(out) :: Status
  Status = nwpio_wrfio_get_previous_time(DataHandle, DateStr, len(DateStr))
end subroutine ext_pnc_get_previous_time

subroutine ext_pnc_set_time(DataHandle, DateStr, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: DateStr
  integer, intent(out) :: Status
  Status = nwpio_wrfio_set_time(DataHandle, DateStr, len(DateStr))
end subroutine ext_pnc_set_time

! For a scalar NDim is 0 and DomainStart/DomainEnd are left as they are (WRF's own rule).
subroutine ext_pnc_get_var_info(DataHandle, Name, NDim, MemoryOrder, Stagger, DomainStart, DomainEnd, WrfType, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: Name
  integer, intent(out) :: NDim
  character(len=*), intent(out) :: MemoryOrder
  character(len=*) :: Stagger
  integer, dimension(*), intent(inout) :: DomainStart, DomainEnd
  integer, intent(out) :: WrfType, Status
  if (len(Stagger) < 0) continue  ! WRF's own package leaves it alone too
  Status = nwpio_wrfio_get_var_info(DataHandle, Name, len(Name), NDim, MemoryOrder, len(MemoryOrder), &
                                    DomainStart, DomainEnd, WrfType)
end subroutine ext_pnc_get_var_info
