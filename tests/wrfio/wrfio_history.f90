! The history file of the test case written through WRF's I/O API exactly as WRF 4.7.1 writes
! one (../shared/wrf/em_quarter_ss/ext_pnc_calls.rank*.log), in steps a driver can interleave with
! other calls: the global attributes, the training phase (one write_field per variable, each
! followed by its put_var_ti_* attributes), and one frame (the global attributes again, changed:
! they must be ignored; every variable's write_field with the frame's DateStr, arrays handed over
! as temporaries and scribbled over after each call). verify_wrfio_output checks the result.
! Each step counts the calls that did not return WRF_NO_ERR in `bad` (and says which on stderr).
module wrfio_history
  use mpi
  use wrfio_case
  implicit none
  private
  public :: history_globals, history_training, history_frame, write_one, memory_values, dim_names

contains

  subroutine note(status, what, bad)
    integer, intent(in) :: status
    character(len=*), intent(in) :: what
    integer, intent(inout) :: bad
    integer :: rank, ierr
    if (status == 0) return
    bad = bad + 1
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    if (bad <= 20) write (0, '(a,i0,a,a,a,i0)') 'rank ', rank, ': FAILED ', what, ' status ', status
  end subroutine

  subroutine history_globals(dh, title, dx, bad)
    integer, intent(in) :: dh
    character(len=*), intent(in) :: title
    real, intent(in) :: dx
    integer, intent(inout) :: bad
    integer :: status
    call ext_pnc_put_dom_ti_char(dh, 'TITLE', title, status); call note(status, 'put_dom_ti_char', bad)
    call ext_pnc_put_dom_ti_char(dh, 'START_DATE', date_of(1), status); call note(status, 'START_DATE', bad)
    call ext_pnc_put_dom_ti_char(dh, 'EMPTY_TEXT', '', status); call note(status, 'EMPTY_TEXT', bad)
    call ext_pnc_put_dom_ti_integer(dh, 'WEST-EAST_GRID_DIMENSION', [E_WE], 1, status)
    call note(status, 'put_dom_ti_integer', bad)
    call ext_pnc_put_dom_ti_real(dh, 'DX', [dx], 1, status); call note(status, 'put_dom_ti_real', bad)
    call ext_pnc_put_dom_ti_double(dh, 'DT_D', [1.25d0, 2.5d0], 2, status); call note(status, 'put_dom_ti_double', bad)
    call ext_pnc_put_dom_ti_logical(dh, 'FLAG', [.true., .false.], 2, status); call note(status, 'put_dom_ti_logical', bad)
  end subroutine

  ! The global attributes and one training write_field per variable with its attributes
  ! (domain_desc: 333933 when WRF's I/O servers train).
  subroutine history_training(dh, g, bad, domain_desc)
    integer, intent(in) :: dh
    type(grid_t), intent(in) :: g
    integer, intent(inout) :: bad
    integer, intent(in), optional :: domain_desc
    integer :: v, status
    call history_globals(dh, ' OUTPUT FROM NWPIO WRFIO DRIVER', 2000.0, bad)
    do v = 1, nfields
      call write_one(dh, g, v, 0, date_of(1), status, domain_desc)
      call note(status, 'training write_field ' // trim(fields(v)%name), bad)
      call ext_pnc_put_var_ti_char(dh, 'description', trim(fields(v)%name), 'desc of ' // trim(fields(v)%name), status)
      call note(status, 'description', bad)
      call ext_pnc_put_var_ti_char(dh, 'units', trim(fields(v)%name), 'm s-1', status)
      call note(status, 'units', bad)
      call ext_pnc_put_var_ti_char(dh, 'stagger', trim(fields(v)%name), trim(fields(v)%stagger), status)
      call note(status, 'stagger', bad)
      if (fields(v)%order(1:1) == 'X') then
        call ext_pnc_put_var_ti_char(dh, 'coordinates', trim(fields(v)%name), 'XLONG XLAT XTIME', status)
        call note(status, 'coordinates', bad)
      end if
    end do
    call ext_pnc_put_var_ti_integer(dh, 'extra_int', 'T', [7, 8], 2, status); call note(status, 'put_var_ti_integer', bad)
    call ext_pnc_put_var_ti_real(dh, 'scale', 'T', [0.5], 1, status); call note(status, 'put_var_ti_real', bad)
  end subroutine

  ! One frame (1..NFRAMES) after the commit: the fields first..last of it (default: all).
  subroutine history_frame(dh, g, frame, bad, first, last)
    integer, intent(in) :: dh, frame
    type(grid_t), intent(in) :: g
    integer, intent(inout) :: bad
    integer, intent(in), optional :: first, last
    integer :: v, v0, v1, status
    v0 = 1; v1 = nfields
    if (present(first)) v0 = first
    if (present(last)) v1 = last
    if (v0 == 1) call history_globals(dh, ' CHANGED AFTER COMMIT', 999.0, bad)  ! WRF repeats them; ignored
    do v = v0, v1
      call write_one(dh, g, v, frame, date_of(frame), status)
      call note(status, 'write_field ' // trim(fields(v)%name) // ' ' // date_of(frame), bad)
    end do
  end subroutine

  ! The memory array's values and which of them lie in this rank's patch.
  subroutine memory_values(v, frame, ms, me, ps, pe, vals, inside)
    integer, intent(in) :: v, frame
    integer, dimension(3), intent(in) :: ms, me, ps, pe
    integer, intent(out) :: vals(:)
    logical, intent(out) :: inside(:)
    integer :: a, b, c, at, ijk(3), ax(3)
    character(len=3) :: order
    order = fields(v)%order
    ax = 0
    if (order == 'XZY') ax = [1, 3, 2]
    if (order == 'XYZ') ax = [1, 2, 3]
    if (order == 'XY ') ax = [1, 2, 0]
    if (order == 'Z  ' .or. order == 'C  ') ax = [3, 0, 0]
    at = 0
    do c = ms(3), me(3)
      do b = ms(2), me(2)
        do a = ms(1), me(1)
          at = at + 1
          ijk = 0
          if (ax(1) > 0) ijk(ax(1)) = a
          if (ax(2) > 0) ijk(ax(2)) = b
          if (ax(3) > 0) ijk(ax(3)) = c
          vals(at) = rule(v, frame, ijk(1), ijk(2), ijk(3))
          inside(at) = a >= ps(1) .and. a <= pe(1) .and. b >= ps(2) .and. b <= pe(2) .and. c >= ps(3) .and. c <= pe(3)
        end do
      end do
    end do
  end subroutine

  subroutine dim_names(v, names)
    integer, intent(in) :: v
    character(len=80), intent(out) :: names(3)
    character(len=80) :: x, y
    x = 'west_east'; y = 'south_north'
    if (fields(v)%stagger == 'X' .or. fields(v)%stagger == 'XY') x = 'west_east_stag'
    if (fields(v)%stagger == 'Y' .or. fields(v)%stagger == 'XY') y = 'south_north_stag'
    names = ' '
    select case (trim(fields(v)%order))
    case ('XZY'); names = [x, fields(v)%kdim // repeat(' ', 60), y]
    case ('XYZ'); names = [x, y, fields(v)%kdim // repeat(' ', 60)]
    case ('XY'); names(1) = x; names(2) = y
    case ('Z', 'C'); names(1) = fields(v)%kdim
    end select
  end subroutine

  ! One write_field call of field v; frame 0 = the training call. The array is a temporary
  ! scribbled over right after the call. piece: as WRF's I/O servers receive it, the array is
  ! exactly the patch (MemoryStart(1) = MemoryEnd(1) = -998899).
  subroutine write_one(dh, g, v, frame, when, status, domain_desc, piece)
    integer, intent(in) :: dh, v, frame
    type(grid_t), intent(in) :: g
    character(len=*), intent(in) :: when
    integer, intent(out) :: status
    integer, intent(in), optional :: domain_desc
    logical, intent(in), optional :: piece
    integer :: ndim, nmem, iocomm, desc
    integer, dimension(3) :: ds, de, ms, me, ps, pe
    integer, allocatable :: vals(:), ivals(:)
    logical, allocatable :: inside(:), lvals(:)
    real, allocatable :: rvals(:)
    real(kind=8), allocatable :: dvals(:)
    character(len=80) :: names(3)
    iocomm = 0
    desc = 0
    if (present(domain_desc)) desc = domain_desc
    call field_bounds(g, v, ndim, ds, de, ms, me, ps, pe)
    if (present(piece)) then
      if (piece) then
        ms = ps; me = pe
      end if
    end if
    call dim_names(v, names)
    nmem = product(me - ms + 1)
    allocate (vals(nmem), inside(nmem))
    call memory_values(v, max(frame, 1), ms, me, ps, pe, vals, inside)
    if (present(piece)) then
      if (piece) then
        ms(1) = -998899; me(1) = -998899
      end if
    end if
    select case (fields(v)%field_type)
    case (104)
      rvals = merge(real(vals), HALO_VALUE, inside)
      call ext_pnc_write_field(dh, when, trim(fields(v)%name), rvals, 104, MPI_COMM_WORLD, iocomm, desc, &
           trim(fields(v)%order), trim(fields(v)%stagger), names, ds, de, ms, me, ps, pe, status)
      rvals = -1.0
    case (105)
      dvals = merge(real(vals, 8) + 0.25d0, real(HALO_VALUE, 8), inside)
      call ext_pnc_write_field(dh, when, trim(fields(v)%name), dvals, 105, MPI_COMM_WORLD, iocomm, desc, &
           trim(fields(v)%order), trim(fields(v)%stagger), names, ds, de, ms, me, ps, pe, status)
      dvals = -1.0d0
    case (106)
      ivals = merge(vals, -7777, inside)
      call ext_pnc_write_field(dh, when, trim(fields(v)%name), ivals, 106, MPI_COMM_WORLD, iocomm, desc, &
           trim(fields(v)%order), trim(fields(v)%stagger), names, ds, de, ms, me, ps, pe, status)
      ivals = -1
    case (107)
      lvals = mod(vals, 3) == 0 .and. inside
      call ext_pnc_write_field(dh, when, trim(fields(v)%name), lvals, 107, MPI_COMM_WORLD, iocomm, desc, &
           trim(fields(v)%order), trim(fields(v)%stagger), names, ds, de, ms, me, ps, pe, status)
      lvals = .true.
    end select
  end subroutine

end module wrfio_history
