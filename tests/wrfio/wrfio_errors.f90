! Bad input through WRF's I/O API: every case must return a WRF status that is not 0 on every
! rank (with nwpio's message on stderr), never hang, and never leave a file under its final name.
! Usage: wrfio_errors <output dir>. Exit 0 when every case behaved.
program wrfio_errors
  use mpi
  use wrfio_case
  implicit none
  integer :: ierr, rank, nranks, status, dh, errors, total, iocomm
  character(len=256) :: outdir
  type(grid_t) :: g

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, outdir)
  g = make_grid(rank, nranks)
  errors = 0
  iocomm = 0
  call ext_pnc_ioinit(' ', status)

  ! 1. A handle that was never opened.
  call write_one(99, 2, date_of(1), 'XZY')
  call expect(status == -14, 'write_field on an unknown handle: WRF_WARN_BAD_DATA_HANDLE')

  ! 2. A file that cannot be created: its directory does not exist.
  call ext_pnc_open_for_write_begin(trim(outdir) // '/no/such/dir/wrfout_d01_' // date_of(1), MPI_COMM_WORLD, &
       iocomm, 'DATASET=HISTORY,GRIDID=1', dh, status)
  call expect(status /= 0, 'open_for_write_begin in a missing directory')

  ! 3. A memory order nwpio does not write (WRF's restart passes 'ZZ', which WRF's own packages
  !    skip too): that variable is left out with WRF_WARN_BAD_MEMORYORDER, the rest is written.
  call open_file('bad_order', dh)
  call write_one(dh, 2, date_of(1), 'XZY')
  call expect(status == 0, 'training write_field of T')
  call write_one(dh, 3, date_of(1), 'YXZ')
  call expect(status == -19, 'memory order YXZ: WRF_WARN_BAD_MEMORYORDER')
  call ext_pnc_put_var_ti_char(dh, 'units', 'U', 'm s-1', status)
  call expect(status /= 0, 'attribute of the variable left out')
  call ext_pnc_open_for_write_commit(dh, status)
  call expect(status == 0, 'commit without the variable left out')
  call write_one(dh, 2, date_of(1), 'XZY')
  call expect(status == 0, 'write_field of T: the frame is complete without U')
  call write_one(dh, 3, date_of(1), 'YXZ')
  call expect(status == -19, 'write_field of the variable left out')
  call ext_pnc_ioclose(dh, status)
  call expect(status == 0, 'ioclose (bad_order)')
  call a_file('bad_order')

  ! 4. A DateStr that is not a date: every rank's write_field fails, no file appears.
  call open_file('bad_date', dh)
  call write_one(dh, 2, date_of(1), 'XZY')
  call ext_pnc_open_for_write_commit(dh, status)
  call expect(status == 0, 'commit (bad_date)')
  call write_one(dh, 2, '2001-13-01_00:00:00', 'XZY')
  call expect(status == -1017, 'month 13: WRF_WARN_DATESTR_ERROR')
  call ext_pnc_ioclose(dh, status)
  call no_file('bad_date')

  ! 5. A field larger than its domain (the patch reaches past DomainEnd).
  call open_file('too_large', dh)
  call write_one(dh, 2, date_of(1), 'XZY', grow=.true.)
  call expect(status == -18, 'patch past the domain end: WRF_WARN_DIMENSION_ERROR')
  call ext_pnc_ioclose(dh, status)
  call expect(status /= 0, 'ioclose before commit: WRF_WARN_DRYRUN_CLOSE')
  call no_file('too_large')
  !    ... and the same training error fails the commit on every rank; WRF goes on regardless,
  !    every later call of the file fails, and nothing is written.
  call open_file('too_large2', dh)
  call write_one(dh, 2, date_of(1), 'XZY', grow=.true.)
  call ext_pnc_open_for_write_commit(dh, status)
  call expect(status /= 0, 'commit after a failed training call')
  call write_one(dh, 2, date_of(1), 'XZY')
  call expect(status /= 0, 'write_field after a failed commit')
  call ext_pnc_ioclose(dh, status)
  call no_file('too_large2')

  ! 6. Calls in the wrong order: commit twice; a frame missing a variable when the next DateStr
  !    arrives fails on every rank, names the variable, and the file keeps its temporary name.
  call open_file('missing', dh)
  call write_one(dh, 2, date_of(1), 'XZY')
  call write_one(dh, 3, date_of(1), 'XZY')
  call ext_pnc_open_for_write_commit(dh, status)
  call ext_pnc_open_for_write_commit(dh, status)
  call expect(status /= 0, 'open_for_write_commit twice')
  call write_one(dh, 2, date_of(1), 'XZY')
  call write_one(dh, 2, date_of(2), 'XZY')
  call expect(status /= 0, 'next DateStr while U of the previous frame is missing')
  call ext_pnc_ioclose(dh, status)
  call no_file('missing')

  call ext_pnc_ioexit(status)
  call MPI_Allreduce(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'wrfio_errors: OK at ', nranks, ' ranks'
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

  subroutine open_file(tag, handle)
    character(len=*), intent(in) :: tag
    integer, intent(out) :: handle
    call ext_pnc_open_for_write_begin(trim(outdir) // '/' // tag // '_d01_' // date_of(1), MPI_COMM_WORLD, iocomm, &
         'DATASET=HISTORY,GRIDID=1', handle, status)
    call expect(status == 0, 'open_for_write_begin ' // tag)
  end subroutine

  ! The file's final name (the ':' of the date become '_').
  function final_name(tag) result(path)
    character(len=*), intent(in) :: tag
    character(len=:), allocatable :: path
    character(len=19) :: d
    integer :: c
    d = date_of(1)
    do c = 1, 19
      if (d(c:c) == ':') d(c:c) = '_'
    end do
    path = trim(outdir) // '/' // tag // '_d01_' // d
  end function

  subroutine no_file(tag)
    character(len=*), intent(in) :: tag
    logical :: there
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    inquire (file=final_name(tag), exist=there)
    call expect(.not. there, 'no file under the final name for ' // tag)
  end subroutine

  ! ioclose returns before the file is committed: its final name appears behind the model,
  ! without another call into the package (waited for up to 60 s).
  subroutine a_file(tag)
    character(len=*), intent(in) :: tag
    logical :: there
    integer :: tries
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    do tries = 1, 6000
      inquire (file=final_name(tag), exist=there)
      if (there) exit
      call sleep_ms(10)
    end do
    call expect(there, 'a file under the final name for ' // tag)
  end subroutine

  subroutine sleep_ms(ms)
    integer, intent(in) :: ms
    double precision :: t0
    t0 = MPI_Wtime()
    do while (MPI_Wtime() - t0 < ms * 1.0d-3)
    end do
  end subroutine

  ! write_field of field v of the case (XZY fields T or U) with the given memory order.
  subroutine write_one(handle, v, when, order, grow)
    integer, intent(in) :: handle, v
    character(len=*), intent(in) :: when, order
    logical, intent(in), optional :: grow
    integer :: ndim
    integer, dimension(3) :: ds, de, ms, me, ps, pe
    real, allocatable :: a(:)
    character(len=80) :: names(3)
    call field_bounds(g, v, ndim, ds, de, ms, me, ps, pe)
    if (present(grow)) then
      pe(1) = de(1) + 1
      me(1) = max(me(1), pe(1))
    end if
    names = [character(len=80) :: 'west_east', 'bottom_top', 'south_north']
    if (fields(v)%stagger == 'X') names(1) = 'west_east_stag'
    allocate (a(product(me - ms + 1)))
    a = 1.0
    call ext_pnc_write_field(handle, when, trim(fields(v)%name), a, 104, MPI_COMM_WORLD, iocomm, 0, order, &
         trim(fields(v)%stagger), names, ds, de, ms, me, ps, pe, status)
  end subroutine

end program wrfio_errors
