! Smallest Fortran user of an installed nwpio: one 2-D field per output time.
!   consumer_f namelist.input output_dir
program consumer_f
  use mpi
  use nwpio
  use nwpio_model
  implicit none
  type(nwpio_stream) :: s
  type(nwpio_model_settings) :: ms
  type(nwpio_bounds) :: b
  integer :: ierr, rank, nranks, nx, ny
  character(len=512) :: namelist, outdir
  real, allocatable :: t2(:,:)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, namelist)
  call get_command_argument(2, outdir)
  call nwpio_read_model_settings(MPI_COMM_WORLD, namelist, 1, ms)
  nx = ms%nproc_x; ny = ms%nproc_y
  call nwpio_decompose(ms%e_we, ms%e_sn, ms%e_vert, nranks, rank, nx, ny, b)
  call nwpio_open(s, MPI_COMM_WORLD, namelist, 1, output_dir=outdir)
  call nwpio_set_domain(s, b)
  call nwpio_def_var(s, 'T2', NWPIO_REAL4, 'XY', '', 'TEMP at 2 M', 'K')
  allocate(t2(b%ims:b%ime, b%jms:b%jme))
  t2 = 290.0
  call nwpio_begin_frame(s, ms%start_date)
  call nwpio_write(s, 'T2', t2)
  call nwpio_end_frame(s)
  call nwpio_close(s)
  if (rank == 0) print '(a)', 'consumer_f: wrote one frame'
  call MPI_Finalize(ierr)
end program consumer_f
