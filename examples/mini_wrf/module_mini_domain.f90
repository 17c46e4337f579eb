! The model's domain: namelist settings, WRF's decomposition of this rank, and the state arrays,
! allocated as WRF allocates them: (ims:ime, kms:kme, jms:jme) with halos, i-k-j order.
module module_mini_domain
  use nwpio_model, only: nwpio_model_settings, nwpio_bounds, nwpio_read_model_settings, nwpio_decompose
  implicit none
  private
  public :: domain, domain_init, NUM_SOIL_LAYERS

  integer, parameter :: NUM_SOIL_LAYERS = 4

  type :: domain
    type(nwpio_model_settings) :: config
    type(nwpio_bounds) :: b                ! ids..kpe of this rank, 1-based inclusive
    integer :: nproc_x = 0, nproc_y = 0
    ! Prognostic and diagnostic state (real, as WRF's default build).
    real, allocatable :: u(:,:,:), v(:,:,:), w(:,:,:), ph(:,:,:), phb(:,:,:)
    real, allocatable :: t(:,:,:), p(:,:,:), pb(:,:,:), qvapor(:,:,:)
    real, allocatable :: tslb(:,:,:)       ! (ims:ime, 1:num_soil_layers, jms:jme)
    real, allocatable :: xlat(:,:), xlong(:,:), t2(:,:), psfc(:,:)
    real, allocatable :: znu(:), znw(:), zs(:)
    real :: xtime = 0, p_top = 5000
    integer :: itimestep = 0
  end type domain

contains

  ! Reads namelist.input (nwpio's reader, collective), decomposes as WRF does (nproc_x/nproc_y,
  ! -1 = chosen), allocates the arrays of this rank.
  subroutine domain_init(grid, comm, rank, nranks, namelist_file)
    type(domain), intent(inout) :: grid
    integer, intent(in) :: comm, rank, nranks
    character(len=*), intent(in) :: namelist_file
    integer :: ims, ime, jms, jme, kms, kme
    call nwpio_read_model_settings(comm, namelist_file, 1, grid%config)
    grid%nproc_x = grid%config%nproc_x
    grid%nproc_y = grid%config%nproc_y
    call nwpio_decompose(grid%config%e_we, grid%config%e_sn, grid%config%e_vert, nranks, rank, &
                         grid%nproc_x, grid%nproc_y, grid%b)
    ims = grid%b%ims; ime = grid%b%ime
    jms = grid%b%jms; jme = grid%b%jme
    kms = grid%b%kms; kme = grid%b%kme
    allocate(grid%u(ims:ime, kms:kme, jms:jme), grid%v(ims:ime, kms:kme, jms:jme), grid%w(ims:ime, kms:kme, jms:jme))
    allocate(grid%ph(ims:ime, kms:kme, jms:jme), grid%phb(ims:ime, kms:kme, jms:jme))
    allocate(grid%t(ims:ime, kms:kme, jms:jme), grid%p(ims:ime, kms:kme, jms:jme))
    allocate(grid%pb(ims:ime, kms:kme, jms:jme), grid%qvapor(ims:ime, kms:kme, jms:jme))
    allocate(grid%tslb(ims:ime, NUM_SOIL_LAYERS, jms:jme))
    allocate(grid%xlat(ims:ime, jms:jme), grid%xlong(ims:ime, jms:jme), grid%t2(ims:ime, jms:jme))
    allocate(grid%psfc(ims:ime, jms:jme))
    allocate(grid%znu(kms:kme), grid%znw(kms:kme), grid%zs(NUM_SOIL_LAYERS))
  end subroutine domain_init
end module module_mini_domain
