! Calls the ext_pnc_* package as WRF's I/O servers do (WRF built with PNETCDF_QUILT): every rank
! here is an I/O server serving two compute tasks of a 1 x 2 (one server) or 2 x 2 (two servers)
! split, i.e. one band of rows each. Training with DomainDesc 333933; then per frame every
! field as pieces that are exactly the compute tasks' patches (MemoryStart(1) = -998899; 1-D and
! scalar fields whole from each task), then iosync, which writes the frame; ioclose. The file
! must hold what wrfio_driver writes (verify_wrfio_output reads every value back).
! Usage: wrfio_quilt <output dir>. Exit 0 when every call succeeded.
program wrfio_quilt
  use mpi
  use wrfio_case
  use wrfio_history
  implicit none
  integer :: ierr, rank, nranks, status, dh, errors, total, n, frame, v, task, iocomm
  character(len=256) :: outdir
  type(grid_t) :: g

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, outdir)
  errors = 0
  iocomm = 0
  call ext_pnc_ioinit(' ', status); call expect(status == 0, 'ioinit')
  call ext_pnc_open_for_write_begin(trim(outdir) // '/wrfout_d01_' // date_of(1), MPI_COMM_WORLD, iocomm, &
       'DATASET=HISTORY,GRIDID=1', dh, status)
  call expect(status == 0, 'open_for_write_begin')
  g = make_grid(rank, nranks)
  n = 0
  call history_training(dh, g, n, domain_desc=333933)
  call expect(n == 0, 'training of the I/O server')
  call ext_pnc_open_for_write_commit(dh, status); call expect(status == 0, 'open_for_write_commit')
  do frame = 1, NFRAMES
    n = 0
    call history_globals(dh, ' CHANGED AFTER COMMIT', 999.0, n)
    do v = 1, nfields
      do task = 2 * rank, 2 * rank + 1  ! this server's compute tasks
        call write_one(dh, make_grid(task, 2 * nranks), v, frame, date_of(frame), status, piece=.true.)
        call expect(status == 0, 'piece of ' // trim(fields(v)%name) // ' ' // date_of(frame))
      end do
    end do
    call ext_pnc_iosync(dh, status); call expect(status == 0, 'iosync ' // date_of(frame))
  end do
  call ext_pnc_ioclose(dh, status); call expect(status == 0, 'ioclose')
  call ext_pnc_ioexit(status)

  call MPI_Allreduce(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'wrfio_quilt: OK at ', nranks, ' I/O server ranks'
  call MPI_Finalize(ierr)
  if (total /= 0) error stop 1

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    errors = errors + 1
    if (errors <= 20) write (0, '(a,i0,a,a,a,i0)') 'rank ', rank, ': FAILED ', what, ' status ', status
  end subroutine

end program wrfio_quilt
