! Without ierr an error is fatal, as wrf_error_fatal: the message is printed and MPI_Abort ends
! the run with a non-zero code (tests/fortran/expect_abort.cmake checks both).
program fortran_abort_test
  use mpi
  use nwpio
  use nwpio_model
  implicit none
  type(nwpio_stream) :: s
  type(nwpio_model_settings) :: ms
  type(nwpio_bounds) :: b
  integer :: ierr, rank, nranks, nx, ny
  character(len=512) :: namelist, outdir
  real(4), allocatable :: wrong(:,:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, namelist)
  call get_command_argument(2, outdir)
  call nwpio_read_model_settings(MPI_COMM_WORLD, namelist, 1, ms)
  nx = -1; ny = -1
  call nwpio_decompose(ms%e_we, ms%e_sn, ms%e_vert, nranks, rank, nx, ny, b)
  call nwpio_open(s, MPI_COMM_WORLD, namelist, 1, output_dir=outdir)
  call nwpio_set_domain(s, b)
  call nwpio_def_var(s, 'T2', NWPIO_REAL4, 'XY', '', 'TEMP at 2 M', 'K')
  allocate(wrong(b%ims:b%ime + 1, b%jms:b%jme))
  wrong = 0
  call nwpio_begin_frame(s, ms%start_date)
  call nwpio_write(s, 'T2', wrong)          ! no ierr: prints the reason and aborts
  print '(a)', 'fortran_abort_test: still running after a fatal error'
  call MPI_Finalize(ierr)
end program fortran_abort_test
