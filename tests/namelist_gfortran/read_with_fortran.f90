! Reads a namelist file as WRF does (a rewind, then read(unit, nml=group), for each group nwpio
! reads) and prints what gfortran made of each group, in the form read_with_nwpio compares:
!   <group>: absent | refused (iostat N) | read
!   <group>%<key> = <values>        (after "read"; unset integers -999, unset strings '(unset)')
! The keys are some of those nwpio reads, of each type; the cases use no others.
program read_with_fortran
  implicit none
  integer, parameter :: unset = -999
  character(len=*), parameter :: unset_text = '(unset)'
  integer :: history_interval(4), frames_per_outfile(4), start_year(4), io_form_history
  character(len=256) :: history_outname
  logical :: nocolons
  integer :: max_dom, e_we(4), e_sn(4)
  integer :: nio_tasks_per_group, nio_groups
  character(len=256) :: output_dir, gather
  integer :: writer_ranks
  logical :: write_behind
  namelist /time_control/ history_interval, frames_per_outfile, start_year, io_form_history, history_outname, nocolons
  namelist /domains/ max_dom, e_we, e_sn
  namelist /namelist_quilt/ nio_tasks_per_group, nio_groups
  namelist /nwpio/ output_dir, writer_ranks, gather, write_behind
  character(len=4096) :: path
  integer :: u, ios

  if (command_argument_count() /= 1) stop 'usage: read_with_fortran NAMELIST_FILE'
  call get_command_argument(1, path)
  open(newunit=u, file=trim(path), status='old', action='read')

  history_interval = unset; frames_per_outfile = unset; start_year = unset; io_form_history = unset
  history_outname = unset_text; nocolons = .false.
  rewind(u)
  read(u, nml=time_control, iostat=ios)
  if (report('time_control', ios, any(history_interval /= unset) .or. any(frames_per_outfile /= unset) .or. &
      any(start_year /= unset) .or. io_form_history /= unset .or. history_outname /= unset_text .or. nocolons)) then
    call ints('time_control%history_interval', history_interval)
    call ints('time_control%frames_per_outfile', frames_per_outfile)
    call ints('time_control%start_year', start_year)
    call ints('time_control%io_form_history', [io_form_history])
    call text('time_control%history_outname', history_outname)
    call flag('time_control%nocolons', nocolons)
  end if

  max_dom = unset; e_we = unset; e_sn = unset
  rewind(u)
  read(u, nml=domains, iostat=ios)
  if (report('domains', ios, max_dom /= unset .or. any(e_we /= unset) .or. any(e_sn /= unset))) then
    call ints('domains%max_dom', [max_dom])
    call ints('domains%e_we', e_we)
    call ints('domains%e_sn', e_sn)
  end if

  nio_tasks_per_group = unset; nio_groups = unset
  rewind(u)
  read(u, nml=namelist_quilt, iostat=ios)
  if (report('namelist_quilt', ios, nio_tasks_per_group /= unset .or. nio_groups /= unset)) then
    call ints('namelist_quilt%nio_tasks_per_group', [nio_tasks_per_group])
    call ints('namelist_quilt%nio_groups', [nio_groups])
  end if

  output_dir = unset_text; gather = unset_text; writer_ranks = unset; write_behind = .false.
  rewind(u)
  read(u, nml=nwpio, iostat=ios)
  if (report('nwpio', ios, output_dir /= unset_text .or. gather /= unset_text .or. writer_ranks /= unset .or. &
      write_behind)) then
    call text('nwpio%output_dir', output_dir)
    call ints('nwpio%writer_ranks', [writer_ranks])
    call text('nwpio%gather', gather)
    call flag('nwpio%write_behind', write_behind)
  end if
  close(u)

contains

  ! Prints the group's outcome; true when its values are to be printed. An end of file is a
  ! missing group when nothing was set, else a group that never ended.
  logical function report(group, ios, changed)
    character(len=*), intent(in) :: group
    integer, intent(in) :: ios
    logical, intent(in) :: changed
    report = .false.
    if (ios == 0) then
      print '(a)', group // ': read'
      report = .true.
    else if (ios < 0 .and. .not. changed) then
      print '(a)', group // ': absent'
    else
      print '(a,i0,a)', group // ': refused (iostat ', ios, ')'
    end if
  end function

  subroutine ints(key, v)
    character(len=*), intent(in) :: key
    integer, intent(in) :: v(:)
    print '(a,*(i0,:,","))', key // ' = ', v
  end subroutine

  subroutine text(key, v)
    character(len=*), intent(in) :: key, v
    print '(a)', key // " = '" // trim(v) // "'"
  end subroutine

  subroutine flag(key, v)
    character(len=*), intent(in) :: key
    logical, intent(in) :: v
    if (v) then
      print '(a)', key // ' = .true.'
    else
      print '(a)', key // ' = .false.'
    end if
  end subroutine

end program read_with_fortran
