! Calls the ext_pnc_* package exactly as WRF 4.7.1 does for one history file
! (../shared/wrf/em_quarter_ss/ext_pnc_calls.rank*.log): ioinit; open_for_write_begin;
! inquire_filename (101); global attributes; one training write_field per variable, each
! followed by its put_var_ti_* attributes; open_for_write_commit; then per frame
! inquire_filename (102), the global attributes again (changed: they must be ignored), every
! variable's write_field with the frame's DateStr (arrays handed over as temporaries and
! scribbled over after each call: nothing may be kept); ioclose. Then the file is read back
! through the package as WRF reads a restart file (open_for_read, get_next_time, get_dom_ti_*,
! get_var_ti_*, get_var_info, read_field) and every value of this rank's patch is checked,
! halos untouched. Usage: wrfio_driver <output dir> [RESTART]: with RESTART the same file is written
! as WRF writes a restart file (DATASET=RESTART, wrfrst_d01_<date>). Exit 0 when every rank found
! no problem; every failed call is printed with its status by the rank that made it.
program wrfio_driver
  use mpi
  use wrfio_case
  use wrfio_history
  implicit none
  integer, parameter :: WRF_FILE_OPENED_NOT_COMMITTED = 101, WRF_FILE_OPENED_FOR_WRITE = 102
  integer :: ierr, rank, nranks, status, dh, fstat, frame, v, errors, total, n, iocomm
  character(len=256) :: outdir, fname, got, dataset
  character(len=19) :: date
  type(grid_t) :: g

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, outdir)
  call get_command_argument(2, dataset)
  if (dataset == ' ') dataset = 'HISTORY'
  g = make_grid(rank, nranks)
  errors = 0
  iocomm = 0
  fname = trim(outdir) // '/wrfout_d01_' // date_of(1)
  if (dataset == 'RESTART') fname = trim(outdir) // '/wrfrst_d01_' // date_of(1)

  call ext_pnc_ioinit(' ', status); call expect(status == 0, 'ioinit')
  call ext_pnc_open_for_write_begin(trim(fname), MPI_COMM_WORLD, iocomm, &
       'DATASET=' // trim(dataset) // ',GRIDID=1,NTASKS_X=1,MYTASK_X=0', dh, status)
  call expect(status == 0, 'open_for_write_begin')
  call ext_pnc_inquire_filename(dh, got, fstat, status)
  call expect(status == 0 .and. fstat == WRF_FILE_OPENED_NOT_COMMITTED .and. got == fname, 'inquire_filename 101')
  n = 0
  call history_training(dh, g, n)
  call expect(n == 0, 'training: global attributes, write_field and put_var_ti_* of every variable')
  call ext_pnc_open_for_write_commit(dh, status); call expect(status == 0, 'open_for_write_commit')
  do frame = 1, NFRAMES
    call ext_pnc_inquire_filename(dh, got, fstat, status)
    call expect(status == 0 .and. fstat == WRF_FILE_OPENED_FOR_WRITE, 'inquire_filename 102')
    n = 0
    call history_frame(dh, g, frame, n)
    call expect(n == 0, 'frame ' // date_of(frame))
  end do
  call ext_pnc_ioclose(dh, status); call expect(status == 0, 'ioclose')

  ! --- read back through the package, as WRF reads a restart file ------------------------------
  call ext_pnc_open_for_read(trim(fname), MPI_COMM_WORLD, iocomm, 'DATASET=RESTART', dh, status)
  call expect(status == 0, 'open_for_read')
  do frame = 1, NFRAMES
    call ext_pnc_get_next_time(dh, date, status)
    call expect(status == 0 .and. date == date_of(frame), 'get_next_time ' // date_of(frame))
  end do
  call ext_pnc_get_next_time(dh, date, status); call expect(status == -4, 'get_next_time at the end: WRF_WARN_TIME_EOF')
  call check_globals()
  call check_var_info()
  do frame = 1, NFRAMES
    do v = 1, nfields
      call read_one(v, frame)
    end do
  end do
  call ext_pnc_ioclose(dh, status); call expect(status == 0, 'ioclose (read)')
  call ext_pnc_ioexit(status); call expect(status == 0, 'ioexit')

  call MPI_Allreduce(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    n = nranks
    if (total == 0) print '(a,i0,a)', 'wrfio_driver: OK at ', n, ' ranks (write, read back, every value)'
    if (total /= 0) print '(a,i0,a)', 'wrfio_driver: ', total, ' problems'
  end if
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

  subroutine read_one(v, frame)
    integer, intent(in) :: v, frame
    integer :: ndim, nmem, bad
    integer, dimension(3) :: ds, de, ms, me, ps, pe
    integer, allocatable :: vals(:), ivals(:)
    logical, allocatable :: inside(:), lvals(:)
    real, allocatable :: rvals(:)
    real(kind=8), allocatable :: dvals(:)
    character(len=80) :: names(3)
    call field_bounds(g, v, ndim, ds, de, ms, me, ps, pe)
    call dim_names(v, names)
    nmem = product(me - ms + 1)
    allocate (vals(nmem), inside(nmem))
    call memory_values(v, frame, ms, me, ps, pe, vals, inside)
    select case (fields(v)%field_type)
    case (104)
      allocate (rvals(nmem)); rvals = HALO_VALUE
      call ext_pnc_read_field(dh, date_of(frame), trim(fields(v)%name), rvals, 104, MPI_COMM_WORLD, iocomm, 0, &
           trim(fields(v)%order), trim(fields(v)%stagger), names, ds, de, ms, me, ps, pe, status)
      bad = count(rvals /= merge(real(vals), HALO_VALUE, inside))
    case (105)
      allocate (dvals(nmem)); dvals = real(HALO_VALUE, 8)
      call ext_pnc_read_field(dh, date_of(frame), trim(fields(v)%name), dvals, 105, MPI_COMM_WORLD, iocomm, 0, &
           trim(fields(v)%order), trim(fields(v)%stagger), names, ds, de, ms, me, ps, pe, status)
      bad = count(dvals /= merge(real(vals, 8) + 0.25d0, real(HALO_VALUE, 8), inside))
    case (106)
      allocate (ivals(nmem)); ivals = -7777
      call ext_pnc_read_field(dh, date_of(frame), trim(fields(v)%name), ivals, 106, MPI_COMM_WORLD, iocomm, 0, &
           trim(fields(v)%order), trim(fields(v)%stagger), names, ds, de, ms, me, ps, pe, status)
      bad = count(ivals /= merge(vals, -7777, inside))
    case default
      allocate (lvals(nmem)); lvals = .false.
      call ext_pnc_read_field(dh, date_of(frame), trim(fields(v)%name), lvals, 107, MPI_COMM_WORLD, iocomm, 0, &
           trim(fields(v)%order), trim(fields(v)%stagger), names, ds, de, ms, me, ps, pe, status)
      bad = count(lvals .neqv. (mod(vals, 3) == 0 .and. inside))
    end select
    call expect(status == 0 .and. bad == 0, 'read_field ' // trim(fields(v)%name) // ' ' // date_of(frame))
    if (bad /= 0 .and. errors <= 20) write (0, '(a,i0,a)') '  ', bad, ' values differ'
  end subroutine

  subroutine check_globals()
    integer :: ivals(4), cnt
    real :: rvals(4)
    real(kind=8) :: dvals(4)
    logical :: lvals(4)
    character(len=64) :: text
    call ext_pnc_get_dom_ti_integer(dh, 'WEST-EAST_GRID_DIMENSION', ivals, 4, cnt, status)
    call expect(status == 0 .and. cnt == 1 .and. ivals(1) == E_WE, 'get_dom_ti_integer')
    call ext_pnc_get_dom_ti_real(dh, 'DX', rvals, 4, cnt, status)
    call expect(status == 0 .and. cnt == 1 .and. rvals(1) == 2000.0, 'get_dom_ti_real (value of the training phase)')
    call ext_pnc_get_dom_ti_double(dh, 'DT_D', dvals, 1, cnt, status)
    call expect(status == -1023 .and. cnt == 1 .and. dvals(1) == 1.25d0, 'get_dom_ti_double (more data in file)')
    call ext_pnc_get_dom_ti_logical(dh, 'FLAG', lvals, 4, cnt, status)
    call expect(status == 0 .and. cnt == 2 .and. lvals(1) .and. .not. lvals(2), 'get_dom_ti_logical')
    call ext_pnc_get_dom_ti_char(dh, 'TITLE', text, status)
    call expect(status == 0 .and. text == ' OUTPUT FROM NWPIO WRFIO DRIVER', 'get_dom_ti_char')
    call ext_pnc_get_dom_ti_char(dh, 'NOT_THERE', text, status)
    call expect(status /= 0, 'get_dom_ti_char of a missing attribute fails')
    call ext_pnc_get_var_ti_char(dh, 'description', 'T', text, status)
    call expect(status == 0 .and. text == 'desc of T', 'get_var_ti_char')
    call ext_pnc_get_var_ti_integer(dh, 'extra_int', 'T', ivals, 4, cnt, status)
    call expect(status == 0 .and. cnt == 2 .and. ivals(2) == 8, 'get_var_ti_integer')
  end subroutine

  subroutine check_var_info()
    integer :: nd, ds(3), de(3), wrftype
    character(len=3) :: order
    character(len=8) :: stag
    call ext_pnc_get_var_info(dh, 'U', nd, order, stag, ds, de, wrftype, status)
    call expect(status == 0 .and. nd == 3 .and. order == 'XYZ' .and. wrftype == 104 .and. &
                all(de == [E_WE, E_SN - 1, E_VERT - 1]), 'get_var_info U')
    call ext_pnc_get_var_info(dh, 'LANDFLAG', nd, order, stag, ds, de, wrftype, status)
    call expect(status == 0 .and. nd == 2 .and. order == 'XY ' .and. wrftype == 107, 'get_var_info LANDFLAG')
    call ext_pnc_get_var_info(dh, 'FCX', nd, order, stag, ds, de, wrftype, status)
    call expect(status == 0 .and. nd == 1 .and. order == 'C  ' .and. de(1) == NSOIL, 'get_var_info FCX')
  end subroutine

end program wrfio_driver
