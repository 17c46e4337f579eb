! The history stream of mini_wrf through nwpio: WRF's names and attributes, the demo's fill
! rule for the values (so that a reader can check every value of the file).
module module_mini_history
  use nwpio
  use module_fill_rule, only: fill_value, fill_3d, fill_2d, fill_1d
  use module_mini_domain, only: domain, NUM_SOIL_LAYERS
  implicit none
  private
  public :: history_open, history_write, history_close

  type(nwpio_stream) :: hist

contains

  subroutine history_open(grid, comm, namelist_file, output_dir)
    type(domain), intent(in) :: grid
    integer, intent(in) :: comm
    character(len=*), intent(in) :: namelist_file, output_dir
    type(nwpio_bounds) :: b
    b = grid%b
    if (len_trim(output_dir) > 0) then
      call nwpio_open(hist, comm, namelist_file, 1, output_dir=output_dir)
    else
      call nwpio_open(hist, comm, namelist_file, 1)
    end if
    call nwpio_set_domain(hist, b%ids, b%ide, b%jds, b%jde, b%kds, b%kde, b%ims, b%ime, b%jms, b%jme, &
                          b%kms, b%kme, b%ips, b%ipe, b%jps, b%jpe, b%kps, b%kpe)
    call nwpio_def_dim(hist, 'soil_layers_stag', NUM_SOIL_LAYERS)
    ! The order here is the order in the file: Times is id 0, XLAT id 1, ... (the fill rule's v).
    call nwpio_def_var(hist, 'XLAT', NWPIO_REAL4, 'XY', '', 'LATITUDE, SOUTH IS NEGATIVE', 'degree_north')
    call nwpio_def_var(hist, 'XLONG', NWPIO_REAL4, 'XY', '', 'LONGITUDE, WEST IS NEGATIVE', 'degree_east')
    call nwpio_def_var(hist, 'U', NWPIO_REAL4, 'XZY', 'X', 'x-wind component', 'm s-1')
    call nwpio_def_var(hist, 'V', NWPIO_REAL4, 'XZY', 'Y', 'y-wind component', 'm s-1')
    call nwpio_def_var(hist, 'W', NWPIO_REAL4, 'XZY', 'Z', 'z-wind component', 'm s-1')
    call nwpio_def_var(hist, 'PH', NWPIO_REAL4, 'XZY', 'Z', 'perturbation geopotential', 'm2 s-2')
    call nwpio_def_var(hist, 'PHB', NWPIO_REAL4, 'XZY', 'Z', 'base-state geopotential', 'm2 s-2')
    call nwpio_def_var(hist, 'T', NWPIO_REAL4, 'XZY', '', 'perturbation potential temperature theta-t0', 'K')
    call nwpio_def_var(hist, 'P', NWPIO_REAL4, 'XZY', '', 'perturbation pressure', 'Pa')
    call nwpio_def_var(hist, 'PB', NWPIO_REAL4, 'XZY', '', 'BASE STATE PRESSURE', 'Pa')
    call nwpio_def_var(hist, 'QVAPOR', NWPIO_REAL4, 'XZY', '', 'Water vapor mixing ratio', 'kg kg-1')
    call nwpio_def_var(hist, 'T2', NWPIO_REAL4, 'XY', '', 'TEMP at 2 M', 'K')
    call nwpio_def_var(hist, 'PSFC', NWPIO_REAL4, 'XY', '', 'SFC PRESSURE', 'Pa')
    call nwpio_def_var(hist, 'ZNU', NWPIO_REAL4, 'Z', '', 'eta values on half (mass) levels', '')
    call nwpio_def_var(hist, 'ZNW', NWPIO_REAL4, 'Z', 'Z', 'eta values on full (w) levels', '')
    call nwpio_def_var(hist, 'TSLB', NWPIO_REAL4, 'XZY', 'Z', 'SOIL TEMPERATURE', 'K', dim='soil_layers_stag')
    call nwpio_def_var(hist, 'ZS', NWPIO_REAL4, 'Z', 'Z', 'DEPTHS OF CENTERS OF SOIL LAYERS', 'm', &
                       dim='soil_layers_stag')
    call nwpio_def_var(hist, 'XTIME', NWPIO_REAL4, '0', '', 'minutes since ' // grid%config%start_date, 'minutes')
    call nwpio_def_var(hist, 'ITIMESTEP', NWPIO_INT4, '0', '', '', '')
    call nwpio_def_var(hist, 'P_TOP', NWPIO_REAL4, '0', '', 'PRESSURE TOP OF THE MODEL', 'Pa')

    call nwpio_put_global_att(hist, 'TITLE', ' OUTPUT FROM MINI_WRF (nwpio example)')
    call nwpio_put_global_att(hist, 'START_DATE', grid%config%start_date)
    call nwpio_put_global_att(hist, 'SIMULATION_START_DATE', grid%config%start_date)
    call nwpio_put_global_att(hist, 'WEST-EAST_GRID_DIMENSION', grid%config%e_we)
    call nwpio_put_global_att(hist, 'SOUTH-NORTH_GRID_DIMENSION', grid%config%e_sn)
    call nwpio_put_global_att(hist, 'BOTTOM-TOP_GRID_DIMENSION', grid%config%e_vert)
    call nwpio_put_global_att(hist, 'DX', real(grid%config%dx))
    call nwpio_put_global_att(hist, 'DY', real(grid%config%dy))
    call nwpio_put_global_att(hist, 'DT', real(grid%config%time_step))
    call nwpio_put_global_att(hist, 'MAP_PROJ', 1)
    call nwpio_put_global_att(hist, 'CEN_LAT', 38.5)
    call nwpio_put_global_att(hist, 'CEN_LON', -97.5)
    call nwpio_put_global_att(hist, 'TRUELAT1', 38.5)
    call nwpio_put_global_att(hist, 'TRUELAT2', 38.5)
    call nwpio_put_global_att(hist, 'STAND_LON', -97.5)
    call nwpio_put_global_att(hist, 'NTASKS_X', grid%nproc_x)
    call nwpio_put_global_att(hist, 'NTASKS_Y', grid%nproc_y)
  end subroutine history_open

  ! Sets the state to the fill rule for frame t (this stands for the model's physics) and
  ! writes it if `date` is an output time. The arrays stay untouched until nwpio_end_frame.
  subroutine history_write(grid, date, frame)
    type(domain), intent(inout) :: grid
    character(len=*), intent(in) :: date
    integer, intent(inout) :: frame
    logical :: due
    call nwpio_output_due(hist, date, due)
    if (.not. due) return
    call set_state(grid, frame)
    call nwpio_begin_frame(hist, date)
    call nwpio_write(hist, 'XLAT', grid%xlat)
    call nwpio_write(hist, 'XLONG', grid%xlong)
    call nwpio_write(hist, 'U', grid%u)
    call nwpio_write(hist, 'V', grid%v)
    call nwpio_write(hist, 'W', grid%w)
    call nwpio_write(hist, 'PH', grid%ph)
    call nwpio_write(hist, 'PHB', grid%phb)
    call nwpio_write(hist, 'T', grid%t)
    call nwpio_write(hist, 'P', grid%p)
    call nwpio_write(hist, 'PB', grid%pb)
    call nwpio_write(hist, 'QVAPOR', grid%qvapor)
    call nwpio_write(hist, 'T2', grid%t2)
    call nwpio_write(hist, 'PSFC', grid%psfc)
    call nwpio_write(hist, 'ZNU', grid%znu)
    call nwpio_write(hist, 'ZNW', grid%znw)
    call nwpio_write(hist, 'TSLB', grid%tslb)
    call nwpio_write(hist, 'ZS', grid%zs)
    call nwpio_write(hist, 'XTIME', grid%xtime)
    call nwpio_write(hist, 'ITIMESTEP', grid%itimestep)
    call nwpio_write(hist, 'P_TOP', grid%p_top)
    call nwpio_end_frame(hist)
    frame = frame + 1
  end subroutine history_write

  subroutine history_close()
    call nwpio_close(hist)
  end subroutine history_close

  ! The fill rule over what this rank writes: unstaggered fields end at ide-1 (jde-1, kde-1),
  ! staggered ones at ide (jde, kde), so only the last patch holds the extra row.
  subroutine set_state(grid, t)
    type(domain), intent(inout) :: grid
    integer, intent(in) :: t
    integer, allocatable :: w3(:,:,:), w2(:,:), w1(:)
    integer :: is, ie, ieu, js, je, jev, ks, ke, kew
    associate (b => grid%b)
      is = b%ips; ie = min(b%ipe, b%ide - 1); ieu = min(b%ipe, b%ide)
      js = b%jps; je = min(b%jpe, b%jde - 1); jev = min(b%jpe, b%jde)
      ks = b%kps; ke = min(b%kpe, b%kde - 1); kew = min(b%kpe, b%kde)
      allocate(w3(b%ims:b%ime, b%kms:b%kme, b%jms:b%jme), w2(b%ims:b%ime, b%jms:b%jme), w1(b%kms:b%kme))
      call fill_2d(w2, is, ie, js, je, t, 1); grid%xlat = real(w2)
      call fill_2d(w2, is, ie, js, je, t, 2); grid%xlong = real(w2)
      call fill_3d(w3, is, ieu, ks, ke, js, je, t, 3, .false.); grid%u = real(w3)
      call fill_3d(w3, is, ie, ks, ke, js, jev, t, 4, .false.); grid%v = real(w3)
      call fill_3d(w3, is, ie, ks, kew, js, je, t, 5, .false.); grid%w = real(w3)
      call fill_3d(w3, is, ie, ks, kew, js, je, t, 6, .false.); grid%ph = real(w3)
      call fill_3d(w3, is, ie, ks, kew, js, je, t, 7, .false.); grid%phb = real(w3)
      call fill_3d(w3, is, ie, ks, ke, js, je, t, 8, .false.); grid%t = real(w3)
      call fill_3d(w3, is, ie, ks, ke, js, je, t, 9, .false.); grid%p = real(w3)
      call fill_3d(w3, is, ie, ks, ke, js, je, t, 10, .false.); grid%pb = real(w3)
      call fill_3d(w3, is, ie, ks, ke, js, je, t, 11, .false.); grid%qvapor = real(w3)
      call fill_2d(w2, is, ie, js, je, t, 12); grid%t2 = real(w2)
      call fill_2d(w2, is, ie, js, je, t, 13); grid%psfc = real(w2)
      call fill_1d(w1, b%kds, b%kde - 1, t, 14); grid%znu = real(w1)
      call fill_1d(w1, b%kds, b%kde, t, 15); grid%znw = real(w1)
      deallocate(w3, w1)
      allocate(w3(b%ims:b%ime, NUM_SOIL_LAYERS, b%jms:b%jme), w1(NUM_SOIL_LAYERS))
      call fill_3d(w3, is, ie, 1, NUM_SOIL_LAYERS, js, je, t, 16, .false.); grid%tslb = real(w3)
      call fill_1d(w1, 1, NUM_SOIL_LAYERS, t, 17); grid%zs = real(w1)
    end associate
    grid%xtime = real(fill_value(0, 0, 0, t, 18))
    grid%itimestep = fill_value(0, 0, 0, t, 19)
    grid%p_top = real(fill_value(0, 0, 0, t, 20))
  end subroutine set_state
end module module_mini_history
