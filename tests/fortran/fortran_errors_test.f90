! Bad input through module nwpio with ierr present: every call returns ierr /= 0 on every rank
! and nwpio_error_message gives the reason; nothing hangs. Stops with a non-zero code on failure.
program fortran_errors_test
  use mpi
  use nwpio
  use nwpio_model
  implicit none
  type(nwpio_stream) :: s, s_bad
  type(nwpio_model_settings) :: ms
  type(nwpio_bounds) :: b
  integer :: ierr, rc, rank, nranks, nx, ny, failures
  character(len=512) :: namelist, outdir
  character(len=1024) :: msg
  real(4), allocatable :: u(:,:,:), wrong(:,:,:), t2(:,:)
  real(8), allocatable :: t2_r8(:,:)
  character(len=300) :: long_name

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, namelist)
  call get_command_argument(2, outdir)
  failures = 0

  call nwpio_read_model_settings(MPI_COMM_WORLD, namelist, 1, ms)
  nx = -1; ny = -1
  call nwpio_decompose(ms%e_we, ms%e_sn, ms%e_vert, nranks, rank, nx, ny, b)
  ! A configuration error fails in nwpio_open itself, not at the first frame (issue 12).
  call nwpio_open(s_bad, MPI_COMM_WORLD, namelist, 1, rc, output_dir=trim(outdir) // '/no/such/dir')
  call expect(rc, 'No such file or directory', 'nwpio_open into a missing output directory')
  call nwpio_open(s, MPI_COMM_WORLD, namelist, 1, output_dir=outdir)
  call nwpio_set_domain(s, b)

  ! Names: blank, longer than NC_MAX_NAME; memory order and kind that do not exist.
  call nwpio_def_var(s, '   ', NWPIO_REAL4, 'XY', '', '', '', rc)
  call expect(rc, 'blank', 'blank variable name')
  long_name = repeat('A', 300)
  call nwpio_def_var(s, long_name, NWPIO_REAL4, 'XY', '', '', '', rc)
  call expect(rc, 'NC_MAX_NAME', 'name longer than 256 characters')
  call nwpio_def_var(s, 'Q', NWPIO_REAL4, 'XYQ', '', '', '', rc)
  call expect(rc, 'memory order', 'unknown memory order')
  call nwpio_def_var(s, 'Q', 42, 'XY', '', '', '', rc)
  call expect(rc, 'NWPIO_REAL4', 'unknown kind')
  call nwpio_put_global_att(s, '', 1, rc)
  call expect(rc, 'blank', 'blank attribute name')
  ! The hint report level: an unknown word is an error, a known one is taken.
  call nwpio_set_hint_report(s, 'verbose', rc)
  call expect(rc, 'not one of off, summary, full', 'unknown hint report level')
  call nwpio_set_hint_report(s, 'summary', rc)
  call expect_ok(rc, 'set_hint_report summary')

  call nwpio_def_var(s, 'U', NWPIO_REAL4, 'XZY', 'X', 'x-wind component', 'm s-1', rc)
  call expect_ok(rc, 'def_var U')
  call nwpio_def_var(s, 'T2', NWPIO_REAL4, 'XY', '', 'TEMP at 2 M', 'K', rc)
  call expect_ok(rc, 'def_var T2')

  allocate(u(b%ims:b%ime, b%kms:b%kme, b%jms:b%jme), t2(b%ims:b%ime, b%jms:b%jme))
  allocate(wrong(b%ims:b%ime - 1, b%kms:b%kme, b%jms:b%jme), t2_r8(b%ims:b%ime, b%jms:b%jme))
  u = 1; t2 = 2; wrong = 3; t2_r8 = 4

  call nwpio_write(s, 'U', u, rc)
  call expect(rc, 'nwpio_begin_frame', 'write before begin_frame')

  call nwpio_begin_frame(s, ms%start_date, rc)
  call expect_ok(rc, 'begin_frame')
  call nwpio_def_var(s, 'LATE', NWPIO_REAL4, 'XY', '', '', '', rc)
  call expect(rc, 'definitions are closed', 'def_var after begin_frame')
  ! Bad bounds: one column short of ims:ime.
  call nwpio_write(s, 'U', wrong, rc)
  call expect(rc, 'disagree with the declared memory bounds', 'array bounds that disagree')
  ! Kind mismatch: real(8) array for a real(4) variable.
  call nwpio_write(s, 'T2', t2_r8, rc)
  call expect(rc, 'kind mismatch', 'real(8) array for a real(4) variable')
  ! Rank mismatch, non-contiguous section, unknown variable.
  call nwpio_write(s, 'U', t2, rc)
  call expect(rc, 'dimensions', '2-D array for a 3-D variable')
  call nwpio_write(s, 'U', u(:, :, b%jms:b%jme:2), rc)
  call expect(rc, 'not contiguous', 'non-contiguous section')
  call nwpio_write(s, 'NOPE', t2, rc)
  call expect(rc, 'not defined', 'unknown variable')
  call nwpio_write(s, 'U', u, rc)
  call expect_ok(rc, 'write U')
  call nwpio_write(s, 'T2', t2, rc)
  call expect_ok(rc, 'write T2')
  ! The frame fails on every rank: the first bad write is reported by end_frame.
  call nwpio_end_frame(s, rc)
  call expect(rc, 'disagree with the declared memory bounds', 'end_frame after a bad write')
  call nwpio_close(s, rc)

  call MPI_Allreduce(MPI_IN_PLACE, failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a)', 'fortran_errors_test: ', failures, ' failures'
  deallocate(u, t2, wrong, t2_r8)  ! for LeakSanitizer: main-program allocatables are never freed
  call MPI_Finalize(ierr)
  if (failures /= 0) error stop 1

contains

  subroutine expect(rc, needle, what)
    integer, intent(in) :: rc
    character(len=*), intent(in) :: needle, what
    call nwpio_error_message(msg)
    if (rc == NWPIO_OK) then
      print '(a,i0,a)', '[rank ', rank, '] FAIL ' // what // ': ierr = 0'
      failures = failures + 1
    else if (index(msg, needle) == 0) then
      print '(a,i0,a)', '[rank ', rank, '] FAIL ' // what // ': message lacks "' // needle // '": ' // trim(msg)
      failures = failures + 1
    else if (rank == 0) then
      print '(a,i0,a)', 'ok ' // what // ' (ierr ', rc, '): ' // trim(msg)
    end if
  end subroutine expect

  subroutine expect_ok(rc, what)
    integer, intent(in) :: rc
    character(len=*), intent(in) :: what
    if (rc /= NWPIO_OK) then
      call nwpio_error_message(msg)
      print '(a,i0,a)', '[rank ', rank, '] FAIL ' // what // ': ' // trim(msg)
      failures = failures + 1
    end if
  end subroutine expect_ok
end program fortran_errors_test
