! The test case of the WRF I/O API driver: a small WRF-like grid split over the ranks the way
! WRF splits it (uneven: the first tasks get one more point; the last patch along x and y holds
! the staggered end), memory with a halo of 5 not clipped at the domain edges, and a table of
! fields that covers what WRF's history and restart streams pass: every memory order (XZY, XYZ,
! XY, Z, 0), staggering in x, y and z, named vertical dimensions (soil layers, seeds), real,
! double, integer and logical fields, 1-D and 0-D fields that arrive from every rank.
! Values follow an integer rule (exact in real(4)), so the C++ verifier computes the same.
module wrfio_case
  implicit none
  private
  public :: grid_t, field_t, make_grid, fields, nfields, rule, HALO_VALUE, date_of, field_bounds, &
            E_WE, E_SN, E_VERT, NSOIL, NSEED, NFRAMES

  integer, parameter :: E_WE = 14, E_SN = 11, E_VERT = 6   ! staggered counts, as WRF's e_we ...
  integer, parameter :: NSOIL = 4, NSEED = 8, NFRAMES = 3, HALO = 5
  real, parameter :: HALO_VALUE = -7777.0

  type grid_t
    integer :: ips, ipe, jps, jpe          ! staggered patch (ipe = E_WE on the last patch)
    integer :: ims, ime, jms, jme, kms, kme
  end type

  type field_t
    character(len=16) :: name
    character(len=3) :: order      ! XZY, XYZ, XY, Z, 0
    character(len=2) :: stagger    ! ' ', X, Y, Z, XY
    integer :: field_type          ! 104 real, 105 double, 106 integer, 107 logical
    character(len=20) :: kdim      ! name of the k dimension ('' for none, or unnamed as WRF passes some)
    integer :: klen                ! its length
  end type

  integer, parameter :: nfields = 20
  type(field_t), parameter :: fields(nfields) = [ &
    field_t('XLAT', 'XY', ' ', 104, '', 0), &
    field_t('T', 'XZY', ' ', 104, 'bottom_top', E_VERT - 1), &
    field_t('U', 'XZY', 'X', 104, 'bottom_top', E_VERT - 1), &
    field_t('V', 'XZY', 'Y', 104, 'bottom_top', E_VERT - 1), &
    field_t('W', 'XZY', 'Z', 104, 'bottom_top_stag', E_VERT), &
    field_t('QXYZ', 'XYZ', ' ', 104, 'bottom_top', E_VERT - 1), &
    field_t('ZNU', 'Z', ' ', 104, 'bottom_top', E_VERT - 1), &
    field_t('ZNW', 'Z', 'Z', 104, 'bottom_top_stag', E_VERT), &
    field_t('ZS', 'Z', 'Z', 104, 'soil_layers_stag', NSOIL), &
    field_t('TSLB', 'XZY', 'Z', 104, 'soil_layers_stag', NSOIL), &
    field_t('XTIME', '0', ' ', 104, '', 0), &
    field_t('ITIMESTEP', '0', ' ', 106, '', 0), &
    field_t('ISEEDARR', 'Z', 'Z', 106, 'seed_dim_stag', NSEED), &
    field_t('LANDFLAG', 'XY', ' ', 107, '', 0), &
    field_t('HGT_D', 'XY', ' ', 105, '', 0), &
    field_t('IVGTYP', 'XY', ' ', 106, '', 0), &
    ! from WRF's restart file: staggered along x and y; memory order C with an unnamed dimension
    ! (WRF names it after the first dimension of that length, here soil_layers_stag, else DIMnnnn);
    ! an XY field with stagger Z
    field_t('SPFORC', 'XY', 'XY', 104, '', 0), &
    field_t('FCX', 'C', ' ', 104, '', NSOIL), &
    field_t('SWVIS', 'XY', 'Z', 104, '', 0), &
    field_t('MPSTATE', 'C', ' ', 104, '', 7)]

contains

  ! WRF's split of n points over p tasks: the first mod(n,p) tasks get one more.
  subroutine split(n, p, r, s, e)
    integer, intent(in) :: n, p, r
    integer, intent(out) :: s, e
    s = r * (n / p) + min(r, mod(n, p)) + 1
    e = s + n / p - 1
    if (r < mod(n, p)) e = e + 1
  end subroutine

  type(grid_t) function make_grid(rank, nranks) result(g)
    integer, intent(in) :: rank, nranks
    integer :: px, py, rx, ry
    select case (nranks)      ! 1x1, 1x2, 3x1 and 2x2: splits along x, y and both, uneven
    case (1); px = 1; py = 1
    case (2); px = 1; py = 2
    case (3); px = 3; py = 1
    case default; px = 2; py = nranks / 2
    end select
    rx = mod(rank, px)
    ry = rank / px
    call split(E_WE - 1, px, rx, g%ips, g%ipe)
    call split(E_SN - 1, py, ry, g%jps, g%jpe)
    if (rx == px - 1) g%ipe = E_WE
    if (ry == py - 1) g%jpe = E_SN
    g%ims = g%ips - HALO; g%ime = g%ipe + HALO
    g%jms = g%jps - HALO; g%jme = g%jpe + HALO
    g%kms = 1; g%kme = E_VERT
  end function

  character(len=19) function date_of(frame)
    integer, intent(in) :: frame
    write (date_of, '(a,i2.2,a)') '2001-01-01_00:', 5 * (frame - 1), ':00'
  end function

  ! The value of field v, frame f at (i, j, k) (0 for an axis the field does not have).
  integer function rule(v, f, i, j, k)
    integer, intent(in) :: v, f, i, j, k
    rule = ((((v * 4 + f) * 8 + k) * 16 + j) * 16 + i)
  end function

  ! WRF's bounds of field v in its memory order: Domain, Memory and Patch, start and end.
  subroutine field_bounds(g, v, ndim, ds, de, ms, me, ps, pe)
    type(grid_t), intent(in) :: g
    integer, intent(in) :: v
    integer, intent(out) :: ndim
    integer, dimension(3), intent(out) :: ds, de, ms, me, ps, pe
    integer :: ide, jde, kde, ipe, jpe, ax(3), lo(3), hi(3), mlo(3), mhi(3), plo(3), phi(3), p
    type(field_t) :: f
    f = fields(v)
    ide = E_WE - 1; jde = E_SN - 1
    if (f%stagger == 'X' .or. f%stagger == 'XY') ide = E_WE
    if (f%stagger == 'Y' .or. f%stagger == 'XY') jde = E_SN
    kde = f%klen
    ipe = min(g%ipe, ide); jpe = min(g%jpe, jde)
    ! per axis i, j, k: domain [1, end], memory, patch
    lo = 1; hi = [ide, jde, kde]
    mlo = [g%ims, g%jms, 1]; mhi = [g%ime, g%jme, max(kde, 1)]
    if (f%kdim(1:10) == 'bottom_top') mhi(3) = g%kme
    plo = [g%ips, g%jps, 1]; phi = [ipe, jpe, kde]
    select case (trim(f%order))
    case ('XZY'); ndim = 3; ax = [1, 3, 2]
    case ('XYZ'); ndim = 3; ax = [1, 2, 3]
    case ('XY'); ndim = 2; ax = [1, 2, 0]
    case ('Z', 'C'); ndim = 1; ax = [3, 0, 0]
      plo(3) = 1; phi(3) = kde   ! 1-D fields: the whole field on every rank
    case default; ndim = 0; ax = 0
    end select
    ds = 1; de = 1; ms = 1; me = 1; ps = 1; pe = 1
    do p = 1, ndim
      ds(p) = lo(ax(p)); de(p) = hi(ax(p))
      ms(p) = mlo(ax(p)); me(p) = mhi(ax(p))
      ps(p) = plo(ax(p)); pe(p) = phi(ax(p))
    end do
  end subroutine

end module wrfio_case
