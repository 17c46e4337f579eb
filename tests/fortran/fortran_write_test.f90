! Fortran writes, C++ reads back (verify_fortran_output --case kinds): every element kind,
! memory order and staggering the Fortran module offers, over the frames namelist.input asks
! for, filled by the fill rule with POISON in halos. Arguments: namelist file, output directory.
program fortran_write_test
  use mpi
  use nwpio
  use nwpio_model
  use module_fill_rule
  implicit none
  integer, parameter :: NSOIL = 4
  type(nwpio_stream) :: s
  type(nwpio_model_settings) :: ms
  type(nwpio_bounds) :: b
  integer :: ierr, rank, nranks, nx, ny, t, step, ie, ieu, je, jev, ke, kew
  character(len=512) :: namelist, outdir
  character(len=NWPIO_DATE_LEN) :: date
  logical :: due
  integer, allocatable :: w3(:,:,:), w2(:,:), w1(:)
  real(4), allocatable :: u(:,:,:), v(:,:,:), w(:,:,:), q_xyz(:,:,:), t2(:,:), znu(:), znw(:), tslb(:,:,:), zs(:)
  real(8), allocatable :: t_r8(:,:,:), hgt_r8(:,:)
  integer, allocatable :: isltyp(:,:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, namelist)
  call get_command_argument(2, outdir)

  call nwpio_read_model_settings(MPI_COMM_WORLD, namelist, 1, ms)
  nx = ms%nproc_x
  ny = ms%nproc_y
  call nwpio_decompose(ms%e_we, ms%e_sn, ms%e_vert, nranks, rank, nx, ny, b)

  call nwpio_open(s, MPI_COMM_WORLD, namelist, 1, output_dir=outdir)
  call nwpio_set_domain(s, b%ids, b%ide, b%jds, b%jde, b%kds, b%kde, b%ims, b%ime, b%jms, b%jme, &
                        b%kms, b%kme, b%ips, b%ipe, b%jps, b%jpe, b%kps, b%kpe)
  call nwpio_def_dim(s, 'soil_layers_stag', NSOIL)
  ! Definition order = netCDF id - 1 (Times is id 0); verify_fortran_output has the same list.
  call nwpio_def_var(s, 'U', NWPIO_REAL4, 'XZY', 'X', 'x-wind component', 'm s-1')
  call nwpio_def_var(s, 'V', NWPIO_REAL4, 'XZY', 'Y', 'y-wind component', 'm s-1')
  call nwpio_def_var(s, 'W', NWPIO_REAL4, 'XZY', 'Z', 'z-wind component', 'm s-1')
  call nwpio_def_var(s, 'T_R8', NWPIO_REAL8, 'XZY', '', 'a double field', 'K')
  call nwpio_def_var(s, 'Q_XYZ', NWPIO_REAL4, 'XYZ', '', 'a field held as (i,j,k)', 'kg kg-1')
  call nwpio_def_var(s, 'T2', NWPIO_REAL4, 'XY', '', 'TEMP at 2 M', 'K')
  call nwpio_def_var(s, 'HGT_R8', NWPIO_REAL8, 'XY', '', 'a double 2-D field', 'm')
  call nwpio_def_var(s, 'ISLTYP', NWPIO_INT4, 'XY', '', 'DOMINANT SOIL CATEGORY', '')
  call nwpio_def_var(s, 'ZNU', NWPIO_REAL4, 'Z', '', 'eta values on half (mass) levels', '')
  call nwpio_def_var(s, 'ZNW', NWPIO_REAL4, 'Z', 'Z', 'eta values on full (w) levels', '')
  call nwpio_def_var(s, 'TSLB', NWPIO_REAL4, 'XZY', 'Z', 'SOIL TEMPERATURE', 'K', dim='soil_layers_stag')
  call nwpio_def_var(s, 'ZS', NWPIO_REAL4, 'Z', 'Z', 'DEPTHS OF CENTERS OF SOIL LAYERS', 'm', dim='soil_layers_stag')
  call nwpio_def_var(s, 'P_TOP', NWPIO_REAL4, '0', '', 'PRESSURE TOP OF THE MODEL', 'Pa')
  call nwpio_def_var(s, 'ITIMESTEP', NWPIO_INT4, '0', '', '', '')
  call nwpio_def_var(s, 'XTIME_R8', NWPIO_REAL8, '0', '', 'minutes since start', 'minutes')
  call nwpio_put_global_att(s, 'TITLE', ' OUTPUT FROM FORTRAN_WRITE_TEST')
  call nwpio_put_global_att(s, 'DX', real(ms%dx, 4))
  call nwpio_put_global_att(s, 'MAP_PROJ', 1)
  call nwpio_put_global_att(s, 'DT_R8', ms%time_step)
  call nwpio_put_global_att(s, 'LEVELS', [1, 2, 3])

  ! What each rank writes (1-based global, inclusive): unstaggered ends at ide-1, staggered at ide.
  ie = min(b%ipe, b%ide - 1); ieu = min(b%ipe, b%ide)
  je = min(b%jpe, b%jde - 1); jev = min(b%jpe, b%jde)
  ke = min(b%kpe, b%kde - 1); kew = min(b%kpe, b%kde)
  allocate(w3(b%ims:b%ime, b%kms:b%kme, b%jms:b%jme), w2(b%ims:b%ime, b%jms:b%jme), w1(b%kms:b%kme))
  allocate(u(b%ims:b%ime, b%kms:b%kme, b%jms:b%jme), v(b%ims:b%ime, b%kms:b%kme, b%jms:b%jme))
  allocate(w(b%ims:b%ime, b%kms:b%kme, b%jms:b%jme), t_r8(b%ims:b%ime, b%kms:b%kme, b%jms:b%jme))
  allocate(q_xyz(b%ims:b%ime, b%jms:b%jme, b%kms:b%kme))
  allocate(t2(b%ims:b%ime, b%jms:b%jme), hgt_r8(b%ims:b%ime, b%jms:b%jme), isltyp(b%ims:b%ime, b%jms:b%jme))
  allocate(znu(b%kms:b%kme), znw(b%kms:b%kme))
  allocate(tslb(b%ims:b%ime, NSOIL, b%jms:b%jme), zs(NSOIL))

  t = 0
  step = 0
  date = ms%start_date
  do while (date <= ms%end_date)
    call nwpio_output_due(s, date, due)
    if (due) then
      call fill_3d(w3, b%ips, ieu, b%kps, ke, b%jps, je, t, 1, .false.); u = real(w3, 4)
      call fill_3d(w3, b%ips, ie, b%kps, ke, b%jps, jev, t, 2, .false.); v = real(w3, 4)
      call fill_3d(w3, b%ips, ie, b%kps, kew, b%jps, je, t, 3, .false.); w = real(w3, 4)
      call fill_3d(w3, b%ips, ie, b%kps, ke, b%jps, je, t, 4, .false.); t_r8 = real(w3, 8)
      deallocate(w3); allocate(w3(b%ims:b%ime, b%jms:b%jme, b%kms:b%kme))
      call fill_3d(w3, b%ips, ie, b%kps, ke, b%jps, je, t, 5, .true.); q_xyz = real(w3, 4)
      deallocate(w3); allocate(w3(b%ims:b%ime, b%kms:b%kme, b%jms:b%jme))
      call fill_2d(w2, b%ips, ie, b%jps, je, t, 6); t2 = real(w2, 4)
      call fill_2d(w2, b%ips, ie, b%jps, je, t, 7); hgt_r8 = real(w2, 8)
      call fill_2d(w2, b%ips, ie, b%jps, je, t, 8); isltyp = w2
      call fill_1d(w1, b%kds, b%kde - 1, t, 9); znu = real(w1, 4)
      call fill_1d(w1, b%kds, b%kde, t, 10); znw = real(w1, 4)
      deallocate(w3); allocate(w3(b%ims:b%ime, NSOIL, b%jms:b%jme))
      call fill_3d(w3, b%ips, ie, 1, NSOIL, b%jps, je, t, 11, .false.); tslb = real(w3, 4)
      deallocate(w3); allocate(w3(b%ims:b%ime, b%kms:b%kme, b%jms:b%jme))
      deallocate(w1); allocate(w1(NSOIL))
      call fill_1d(w1, 1, NSOIL, t, 12); zs = real(w1, 4)
      deallocate(w1); allocate(w1(b%kms:b%kme))

      call nwpio_begin_frame(s, date)
      call nwpio_write(s, 'U', u)
      call nwpio_write(s, 'V', v)
      call nwpio_write(s, 'W', w)
      call nwpio_write(s, 'T_R8', t_r8)
      call nwpio_write(s, 'Q_XYZ', q_xyz)
      call nwpio_write(s, 'T2', t2)
      call nwpio_write(s, 'HGT_R8', hgt_r8)
      call nwpio_write(s, 'ISLTYP', isltyp)
      call nwpio_write(s, 'ZNU', znu)
      call nwpio_write(s, 'ZNW', znw)
      call nwpio_write(s, 'TSLB', tslb)
      call nwpio_write(s, 'ZS', zs)
      call nwpio_write(s, 'P_TOP', real(fill_value(0, 0, 0, t, 13), 4))     ! scalars: expressions are fine
      call nwpio_write(s, 'ITIMESTEP', fill_value(0, 0, 0, t, 14))
      call nwpio_write(s, 'XTIME_R8', real(fill_value(0, 0, 0, t, 15), 8))
      call nwpio_end_frame(s)
      t = t + 1
    end if
    step = step + 1
    call nwpio_date_add(ms%start_date, nint(step * ms%time_step), date)
  end do
  call nwpio_close(s)
  if (rank == 0) print '(a,i0,a,i0,a,i0,a)', 'fortran_write_test: ', t, ' frames on ', nx, ' x ', ny, ' ranks'
  ! Main-program allocatables are never freed at END PROGRAM (implicitly SAVE): free them, so
  ! that LeakSanitizer (sanitizer build) sees no leak.
  deallocate(w3, w2, w1, u, v, w, t_r8, q_xyz, t2, hgt_r8, isltyp, znu, znw, tslb, zs)
  call MPI_Finalize(ierr)
end program fortran_write_test
