! WRF's I/O API for io_form 11, the file-level entry points: package set-up, opening (training
! and commit), inquiries, closing. Argument lists are WRF's own (external/io_pnetcdf/wrf_io.F90).

subroutine ext_pnc_ioinit(SysDepInfo, Status)
  use nwpio_wrfio_c
  implicit none
  character(len=*), intent(in) :: SysDepInfo
  integer, intent(out) :: Status
  if (len(SysDepInfo) < 0) continue  ! WRF passes nothing the package needs here
  Status = nwpio_wrfio_ioinit()
end subroutine ext_pnc_ioinit

subroutine ext_pnc_ioexit(Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(out) :: Status
  Status = nwpio_wrfio_ioexit()
end subroutine ext_pnc_ioexit

subroutine ext_pnc_open_for_write_begin(FileName, Comm, IOComm, SysDepInfo, DataHandle, Status)
  use nwpio_wrfio_c
  implicit none
  character(len=*), intent(in) :: FileName
  integer, intent(in) :: Comm, IOComm
  character(len=*), intent(in) :: SysDepInfo
  integer, intent(out) :: DataHandle, Status
  if (IOComm < 0) continue  ! unused: the file is written by Comm's ranks
  Status = nwpio_wrfio_open_for_write_begin(FileName, len(FileName), Comm, SysDepInfo, len(SysDepInfo), DataHandle)
end subroutine ext_pnc_open_for_write_begin

subroutine ext_pnc_open_for_write_commit(DataHandle, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  integer, intent(out) :: Status
  Status = nwpio_wrfio_open_for_write_commit(DataHandle)
end subroutine ext_pnc_open_for_write_commit

subroutine ext_pnc_open_for_read_begin(FileName, Comm, IOComm, SysDepInfo, DataHandle, Status)
  use nwpio_wrfio_c
  implicit none
  character(len=*), intent(in) :: FileName
  integer, intent(in) :: Comm, IOComm
  character(len=*), intent(in) :: SysDepInfo
  integer, intent(out) :: DataHandle, Status
  if (IOComm < 0) continue
  Status = nwpio_wrfio_open_for_read_begin(FileName, len(FileName), Comm, SysDepInfo, len(SysDepInfo), DataHandle)
end subroutine ext_pnc_open_for_read_begin

subroutine ext_pnc_open_for_read_commit(DataHandle, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  integer, intent(out) :: Status
  Status = nwpio_wrfio_open_for_read_commit(DataHandle)
end subroutine ext_pnc_open_for_read_commit

subroutine ext_pnc_open_for_read(DatasetName, Comm1, Comm2, SysDepInfo, DataHandle, Status)
  use nwpio_wrfio_c
  implicit none
  character(len=*), intent(in) :: DatasetName
  integer, intent(in) :: Comm1, Comm2
  character(len=*), intent(in) :: SysDepInfo
  integer, intent(out) :: DataHandle, Status
  call ext_pnc_open_for_read_begin(DatasetName, Comm1, Comm2, SysDepInfo, DataHandle, Status)
  if (Status == WRF_NO_ERR) call ext_pnc_open_for_read_commit(DataHandle, Status)
end subroutine ext_pnc_open_for_read

subroutine ext_pnc_inquire_opened(DataHandle, FileName, FileStatus, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(in) :: FileName
  integer, intent(out) :: FileStatus, Status
  Status = nwpio_wrfio_inquire_opened(DataHandle, FileName, len(FileName), FileStatus)
end subroutine ext_pnc_inquire_opened

subroutine ext_pnc_inquire_filename(DataHandle, FileName, FileStatus, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  character(len=*), intent(out) :: FileName
  integer, intent(out) :: FileStatus, Status
  Status = nwpio_wrfio_inquire_filename(DataHandle, FileName, len(FileName), FileStatus)
end subroutine ext_pnc_inquire_filename

subroutine ext_pnc_ioclose(DataHandle, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  integer, intent(out) :: Status
  Status = nwpio_wrfio_ioclose(DataHandle)
end subroutine ext_pnc_ioclose

! I/O servers (PNETCDF_QUILT) call this after the last field of a frame: the frame is written.
subroutine ext_pnc_iosync(DataHandle, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  integer, intent(out) :: Status
  Status = nwpio_wrfio_iosync(DataHandle)
end subroutine ext_pnc_iosync

! I/O servers switch PnetCDF to independent mode for the patches only some of them hold.
! nwpio stages every piece and writes the frame with one collective step at iosync, so there
! is nothing to switch.
subroutine ext_pnc_start_independent_mode(DataHandle, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  integer, intent(out) :: Status
  if (DataHandle < 0) continue
  Status = WRF_NO_ERR
end subroutine ext_pnc_start_independent_mode

subroutine ext_pnc_end_independent_mode(DataHandle, Status)
  use nwpio_wrfio_c
  implicit none
  integer, intent(in) :: DataHandle
  integer, intent(out) :: Status
  if (DataHandle < 0) continue
  Status = WRF_NO_ERR
end subroutine ext_pnc_end_independent_mode
