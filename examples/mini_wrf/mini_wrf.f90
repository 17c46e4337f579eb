! mini_wrf: a WRF-style Fortran model that writes its history through nwpio.
! Reads namelist.input (&time_control, &domains, &namelist_quilt, &nwpio), decomposes as WRF
! does, allocates (ims:ime, kms:kme, jms:jme) arrays with halos, steps model time by time_step
! from start to end date and writes history whenever nwpio says it is due. With
! &namelist_quilt nio_tasks_per_group > 0 the last ranks are I/O servers that write the history
! while the model steps on (start compute + servers ranks).
!   mpiexec -n 4 ./mini_wrf [output_dir]
program mini_wrf
  use mpi
  use nwpio, only: nwpio_servers_start, nwpio_servers_stop, NWPIO_DATE_LEN
  use nwpio_model, only: nwpio_date_add
  use module_mini_domain, only: domain, domain_init
  use module_mini_history, only: history_open, history_write, history_close
  implicit none
  type(domain) :: grid
  integer :: ierr, rank, nranks, step, frame, comm
  logical :: is_server
  character(len=NWPIO_DATE_LEN) :: date
  character(len=512) :: output_dir

  call MPI_Init(ierr)
  ! I/O servers, as WRF's quilting: on the last ranks this call serves until the compute ranks
  ! call nwpio_servers_stop; the others get the compute communicator (MPI_COMM_WORLD when the
  ! namelist asks for no servers) and use it as their world.
  call nwpio_servers_start(MPI_COMM_WORLD, 'namelist.input', is_server, comm)
  if (is_server) then
    call MPI_Finalize(ierr)
    stop
  end if
  call MPI_Comm_rank(comm, rank, ierr)
  call MPI_Comm_size(comm, nranks, ierr)
  output_dir = ' '
  if (command_argument_count() >= 1) call get_command_argument(1, output_dir)

  call domain_init(grid, comm, rank, nranks, 'namelist.input')
  if (rank == 0) then
    print '(a,i0,a,i0,a,i0,a,i0,a,i0,a)', 'mini_wrf: ', grid%config%e_we, ' x ', grid%config%e_sn, ' x ', &
          grid%config%e_vert, ' on ', grid%nproc_x, ' x ', grid%nproc_y, ' ranks'
    print '(a)', 'mini_wrf: ' // grid%config%start_date // ' to ' // grid%config%end_date
  end if
  call history_open(grid, comm, 'namelist.input', output_dir)

  step = 0
  frame = 0
  date = grid%config%start_date
  do while (date <= grid%config%end_date)
    call history_write(grid, date, frame)
    step = step + 1
    grid%itimestep = step
    call nwpio_date_add(grid%config%start_date, nint(step * grid%config%time_step), date)
  end do
  call history_close()
  call nwpio_servers_stop()
  if (rank == 0) print '(a,i0,a,i0,a)', 'mini_wrf: ', step, ' steps, ', frame, ' history frames'
  call MPI_Finalize(ierr)
end program mini_wrf
