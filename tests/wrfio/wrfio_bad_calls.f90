! Bad calls through WRF's I/O API while a good history file is open and written: each bad call
! must return WRF's status for it, with a message naming the call and the argument, on every
! rank that made it; no bad file may appear under its final name; nobody may hang (ctest's
! TIMEOUT); and the good file, open across all of it, must come out complete (verify_wrfio_output
! reads every value back through netCDF-C, ncvalidator checks it).
!   - arguments, in training and in a frame: Var with '/' and too long, Stagger, FieldType,
!     negative and disagreeing bounds, a FieldType that is not the variable's, a DimNames entry;
!   - only the last rank passes a bad argument (a DateStr in a frame, a MemoryOrder in a frame,
!     a Stagger in training): it gets WRF's status for it, every other rank an error status at
!     the frame's end or at the commit;
!   - handles never opened or already closed; iosync before open_for_write_commit (a write
!     before the commit), put_var_ti after it;
!   - a frame lost between two good ones: the file gets no final name.
! Bad files go to <output dir>/bad. Usage: wrfio_bad_calls <output dir>. Exit 0 when all behaved.
program wrfio_bad_calls
  use mpi
  use wrfio_case
  use wrfio_history
  implicit none
  integer, parameter :: T = 2, U = 3   ! fields of the case (XZY, U staggered along x)
  integer :: ierr, rank, nranks, last, status, good, dh, errors, total, n, iocomm
  character(len=256) :: outdir
  type(grid_t) :: g

  interface
    subroutine nwpio_wrfio_last_error(text, text_len) bind(C)
      use, intrinsic :: iso_c_binding, only: c_char, c_int
      character(kind=c_char), dimension(*), intent(out) :: text
      integer(c_int), value :: text_len
    end subroutine
  end interface

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  last = nranks - 1
  call get_command_argument(1, outdir)
  g = make_grid(rank, nranks)
  errors = 0
  iocomm = 0
  call ext_pnc_ioinit(' ', status)

  ! The good file: opened and trained first, written in frames between the bad cases.
  call ext_pnc_open_for_write_begin(trim(outdir) // '/wrfout_d01_' // date_of(1), MPI_COMM_WORLD, iocomm, &
       'DATASET=HISTORY,GRIDID=1', good, status)
  call expect(status == 0, 'open_for_write_begin of the good file')
  n = 0
  call history_training(good, g, n)
  call expect(n == 0, 'training of the good file')

  ! --- handles and call order ---------------------------------------------------------------
  call bad_write(12345, T, date_of(1))
  call expect_status(-14, 'write_field on a handle never opened', 'DataHandle 12345')
  call ext_pnc_open_for_write_commit(12345, status); call expect_status(-14, 'commit of a handle never opened', '12345')
  call ext_pnc_iosync(12345, status); call expect_status(-14, 'iosync of a handle never opened', '12345')
  call ext_pnc_put_dom_ti_real(12345, 'DX', [1.0], 1, status)
  call expect_status(-14, 'put_dom_ti of a handle never opened', 'ext_pnc_put_dom_ti')
  call ext_pnc_ioclose(12345, status); call expect_status(-14, 'ioclose of a handle never opened', 'ext_pnc_ioclose')

  call open_bad('order', dh)
  call bad_write(dh, T, date_of(1))
  call ext_pnc_iosync(dh, status)
  call expect_status(-1008, 'iosync before open_for_write_commit: WRF_WARN_FILE_NOT_COMMITTED', 'ext_pnc_iosync')
  call ext_pnc_open_for_write_commit(dh, status); call expect(status == 0, 'commit (order)')
  call ext_pnc_put_var_ti_char(dh, 'units', 'T', 'K', status)
  call expect_status(-1011, 'put_var_ti after the commit: WRF_WARN_MD_AFTER_OPEN', 'units')
  call ext_pnc_ioclose(dh, status); call expect(status == 0, 'ioclose (order)')
  call bad_write(dh, T, date_of(1)); call expect_status(-14, 'write_field after ioclose', 'is not an open file')
  call ext_pnc_ioclose(dh, status); call expect_status(-14, 'ioclose twice', 'ext_pnc_ioclose')
  call no_file('order')

  ! --- bad arguments in training: the call's own status; the commit fails on every rank -------
  call training_case('slash', 'Var with /', -22, "Var 'T/2' contains '/'", var='T/2')
  call training_case('long', 'Var too long', -21, 'NC_MAX_NAME', var=repeat('T', 300))
  call training_case('stagger', 'unknown Stagger', -22, "Stagger 'Q'", stagger='Q')
  call training_case('ftype', 'FieldType 103', -1007, 'FieldType 103', ftype=103)
  call training_case('negative', 'negative DomainStart', -18, 'DomainStart(3)', spoil=1)
  call training_case('disagree', 'PatchEnd before PatchStart', -18, 'PatchStart:PatchEnd', spoil=2)
  call training_case('vdim', 'DimNames with /', -22, "DimNames(2) 'bottom/top'", spoil=3)
  call training_case('one_stagger', 'Stagger Q on the last rank only', -22, "Stagger 'Q'", stagger='Q', only=last)

  call ext_pnc_open_for_write_commit(good, status); call expect(status == 0, 'commit of the good file')
  n = 0
  call history_frame(good, g, 1, n)
  call expect(n == 0, 'frame 1 of the good file')

  ! --- bad arguments in a frame: the call's own status; the frame fails on every rank -------------
  call frame_case('ftype2', 'FieldType 105 for a real variable: WRF_WARN_TYPE_MISMATCH', -8, 'FieldType 105', ftype=105)
  call frame_case('patch', 'negative PatchStart', -18, 'PatchStart:PatchEnd', spoil=4)
  call frame_case('one_date', 'a DateStr that is no date, on the last rank only', -1017, 'month 13', &
                  date='2001-13-01_00:05:00', only=last)
  call frame_case('one_order', 'MemoryOrder YXZ on the last rank only', -19, "MemoryOrder 'YXZ'", order='YXZ', only=last)

  ! The good file's frame 2 is open while a file loses a frame between two good ones.
  n = 0
  call history_frame(good, g, 2, n, last=7)
  call lost_frame_case()
  call history_frame(good, g, 2, n, first=8)
  call expect(n == 0, 'frame 2 of the good file')
  n = 0
  call history_frame(good, g, 3, n)
  call expect(n == 0, 'frame 3 of the good file')
  call ext_pnc_ioclose(good, status); call expect(status == 0, 'ioclose of the good file')
  call bad_write(good, T, date_of(1)); call expect_status(-14, 'write_field after ioclose of the good file', '')

  call ext_pnc_ioexit(status)
  call MPI_Allreduce(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'wrfio_bad_calls: OK at ', nranks, ' ranks'
  call MPI_Finalize(ierr)
  if (total /= 0) error stop 1

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    errors = errors + 1
    write (0, '(a,i0,a,a,a,i0)') 'rank ', rank, ': FAILED ', what, ' status ', status
  end subroutine

  ! The last call returned `want`, and the package's message says `named`.
  subroutine expect_status(want, what, named)
    integer, intent(in) :: want
    character(len=*), intent(in) :: what, named
    character(len=1000) :: msg
    call expect(status == want, what)
    call nwpio_wrfio_last_error(msg, len(msg))
    if (status /= 0 .and. index(msg, named) == 0) then
      errors = errors + 1
      write (0, '(a,i0,a,a,a,a)') 'rank ', rank, ': FAILED ', what, ': the message does not say ', named
      write (0, '(a,a)') '  it says: ', trim(msg)
    end if
  end subroutine

  subroutine open_bad(tag, handle)
    character(len=*), intent(in) :: tag
    integer, intent(out) :: handle
    call ext_pnc_open_for_write_begin(trim(outdir) // '/bad/' // tag // '_d01_' // date_of(1), MPI_COMM_WORLD, &
         iocomm, 'DATASET=HISTORY,GRIDID=1', handle, status)
    call expect(status == 0, 'open_for_write_begin ' // tag)
  end subroutine

  subroutine no_file(tag)
    character(len=*), intent(in) :: tag
    character(len=19) :: d
    logical :: there
    integer :: c
    d = date_of(1)
    do c = 1, 19
      if (d(c:c) == ':') d(c:c) = '_'
    end do
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    inquire (file=trim(outdir) // '/bad/' // tag // '_d01_' // d, exist=there)
    call expect(.not. there, 'no file under the final name for ' // tag)
  end subroutine

  ! A training call with one argument spoilt (on every rank, or on rank `only`); the commit then
  ! fails on every rank, and so does every later call of the file.
  subroutine training_case(tag, what, want, named, var, stagger, ftype, spoil, only)
    character(len=*), intent(in) :: tag, what, named
    integer, intent(in) :: want
    character(len=*), intent(in), optional :: var, stagger
    integer, intent(in), optional :: ftype, spoil, only
    logical :: mine
    mine = .true.
    if (present(only)) mine = rank == only
    call open_bad(tag, dh)
    call bad_write(dh, U, date_of(1))
    call expect(status == 0, 'training write_field of U (' // tag // ')')
    if (mine) then
      call bad_write(dh, T, date_of(1), var=var, stagger=stagger, ftype=ftype, spoil=spoil)
      call expect_status(want, what, named)
      call expect_status(want, what, 'ext_pnc_write_field')
    else
      call bad_write(dh, T, date_of(1))
      call expect(status == 0, 'training write_field of T (' // tag // ', a good rank)')
    end if
    call ext_pnc_open_for_write_commit(dh, status)
    call expect(status /= 0, 'open_for_write_commit after ' // what // ' fails on every rank')
    call bad_write(dh, U, date_of(1))
    call expect(status /= 0, 'write_field after a failed commit (' // tag // ')')
    call ext_pnc_ioclose(dh, status)
    call no_file(tag)
  end subroutine

  ! A file with T and U: frame 1 good, then frame 2 with T's call spoilt (on every rank, or on
  ! rank `only`): that call returns `want` there, and every rank gets an error status by the
  ! frame's end (U, its last call); frame 3 is written on every rank again (all still in step);
  ! the file, which lost frame 2, gets no final name.
  subroutine frame_case(tag, what, want, named, date, order, ftype, spoil, only)
    character(len=*), intent(in) :: tag, what, named
    integer, intent(in) :: want
    character(len=*), intent(in), optional :: date, order
    integer, intent(in), optional :: ftype, spoil, only
    logical :: mine, saw_error
    mine = .true.
    if (present(only)) mine = rank == only
    call open_bad(tag, dh)
    call bad_write(dh, T, date_of(1)); call bad_write(dh, U, date_of(1))
    call ext_pnc_open_for_write_commit(dh, status); call expect(status == 0, 'commit (' // tag // ')')
    call bad_write(dh, T, date_of(1)); call bad_write(dh, U, date_of(1))
    call expect(status == 0, 'frame 1 (' // tag // ')')
    saw_error = .false.
    if (mine) then
      call bad_write(dh, T, date_of(2), date=date, order=order, ftype=ftype, spoil=spoil)
      call expect_status(want, what, named)
      call expect_status(want, what, 'ext_pnc_write_field')
    else
      call bad_write(dh, T, date_of(2))
    end if
    saw_error = status /= 0
    call bad_write(dh, U, date_of(2))
    saw_error = saw_error .or. status /= 0
    call expect(saw_error, what // ': an error status on every rank by the end of the frame')
    ! Every rank is still in step: the next frame is written.
    call bad_write(dh, T, date_of(3)); call expect(status == 0, 'T of frame 3 after ' // what)
    call bad_write(dh, U, date_of(3)); call expect(status == 0, 'U of frame 3 after ' // what)
    call ext_pnc_ioclose(dh, status)
    call expect(status /= 0, 'ioclose of a file that lost a frame (' // tag // ')')
    call no_file(tag)
  end subroutine

  ! Frames 1 and 3 good, frame 2 lost (the last rank's patch of U is wrong): every call after
  ! the lost frame still works, but the file keeps its temporary name.
  subroutine lost_frame_case()
    integer :: frame
    call open_bad('lost', dh)
    call bad_write(dh, T, date_of(1)); call bad_write(dh, U, date_of(1))
    call ext_pnc_open_for_write_commit(dh, status); call expect(status == 0, 'commit (lost)')
    do frame = 1, 3
      call bad_write(dh, T, date_of(frame))
      call expect(status == 0, 'T (lost)')
      if (frame == 2 .and. rank == last) then
        call bad_write(dh, U, date_of(frame), spoil=5)
        call expect_status(-18, 'U of frame 2 with a patch the training did not have', 'patch')
      else
        call bad_write(dh, U, date_of(frame))
        call expect((frame == 2) .eqv. (status /= 0), 'U of frame ' // date_of(frame) // ' (lost)')
      end if
    end do
    call ext_pnc_ioclose(dh, status)
    call expect_status(-102, 'ioclose of a file that lost a frame', '1 frame(s) of this file failed')
    call no_file('lost')
  end subroutine

  ! write_field of field v (T or U, XZY) with one argument changed:
  !   spoil 1: DomainStart(3) = -1; 2: PatchEnd(1) before PatchStart(1); 3: DimNames(2)
  !   'bottom/top'; 4: PatchStart(2) = -3; 5: PatchEnd(1) one less (a patch the training did
  !   not have).
  subroutine bad_write(handle, v, when, var, date, order, stagger, ftype, spoil)
    integer, intent(in) :: handle, v
    character(len=*), intent(in) :: when
    character(len=*), intent(in), optional :: var, date, order, stagger
    integer, intent(in), optional :: ftype, spoil
    integer :: ndim, kind
    integer, dimension(3) :: ds, de, ms, me, ps, pe
    real, allocatable :: a(:)
    real(kind=8), allocatable :: d(:)
    character(len=80) :: names(3)
    character(len=:), allocatable :: var_, date_, order_, stagger_
    call field_bounds(g, v, ndim, ds, de, ms, me, ps, pe)
    call dim_names(v, names)
    var_ = trim(fields(v)%name); date_ = when; order_ = trim(fields(v)%order); stagger_ = trim(fields(v)%stagger)
    kind = fields(v)%field_type
    if (present(var)) var_ = var
    if (present(date)) date_ = date
    if (present(order)) order_ = order
    if (present(stagger)) stagger_ = stagger
    if (present(ftype)) kind = ftype
    if (present(spoil)) then
      select case (spoil)
      case (1); ds(3) = -1
      case (2); pe(1) = ps(1) - 1
      case (3); names(2) = 'bottom/top'
      case (4); ps(2) = -3
      case (5); pe(1) = pe(1) - 1
      end select
    end if
    allocate (a(product(me - ms + 1)), d(product(me - ms + 1)))
    a = 1.0; d = 1.0d0
    if (kind == 105) then
      call ext_pnc_write_field(handle, date_, var_, d, kind, MPI_COMM_WORLD, iocomm, 0, order_, stagger_, names, &
           ds, de, ms, me, ps, pe, status)
    else
      call ext_pnc_write_field(handle, date_, var_, a, kind, MPI_COMM_WORLD, iocomm, 0, order_, stagger_, names, &
           ds, de, ms, me, ps, pe, status)
    end if
  end subroutine

end program wrfio_bad_calls
