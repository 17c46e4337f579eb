! The demo's fill rule, so that any reader can check a file: the variable with netCDF id v
! (Times = 0, then the variables in definition order), at 0-based global indices i, j, k
! (0 where the field has no such axis), in frame t (0-based over the run) holds
! mod(7*i + 13*j + 17*k + 19*t + 23*v, 1021). Halo cells and cells a field does not write hold
! POISON, so a writer that copies one of them into the file is caught.
module module_fill_rule
  implicit none
  private
  public :: POISON, fill_value, fill_3d, fill_2d, fill_1d

  integer, parameter :: POISON = -9999

contains

  pure integer function fill_value(i, j, k, t, v)
    integer, intent(in) :: i, j, k, t, v
    fill_value = mod(7*i + 13*j + 17*k + 19*t + 23*v, 1021)
  end function fill_value

  ! w(i,k,j) (or w(i,j,k) when xyz) over the 1-based global ranges ilo:ihi, klo:khi, jlo:jhi.
  subroutine fill_3d(w, ilo, ihi, klo, khi, jlo, jhi, t, v, xyz)
    integer, allocatable, intent(inout) :: w(:,:,:)
    integer, intent(in) :: ilo, ihi, klo, khi, jlo, jhi, t, v
    logical, intent(in) :: xyz
    integer :: i, j, k
    w = POISON
    do j = jlo, jhi
      do k = klo, khi
        do i = ilo, ihi
          if (xyz) then
            w(i, j, k) = fill_value(i - 1, j - 1, k - 1, t, v)
          else
            w(i, k, j) = fill_value(i - 1, j - 1, k - 1, t, v)
          end if
        end do
      end do
    end do
  end subroutine fill_3d

  subroutine fill_2d(w, ilo, ihi, jlo, jhi, t, v)
    integer, allocatable, intent(inout) :: w(:,:)
    integer, intent(in) :: ilo, ihi, jlo, jhi, t, v
    integer :: i, j
    w = POISON
    do j = jlo, jhi
      do i = ilo, ihi
        w(i, j) = fill_value(i - 1, j - 1, 0, t, v)
      end do
    end do
  end subroutine fill_2d

  subroutine fill_1d(w, klo, khi, t, v)
    integer, allocatable, intent(inout) :: w(:)
    integer, intent(in) :: klo, khi, t, v
    integer :: k
    w = POISON
    do k = klo, khi
      w(k) = fill_value(0, 0, k - 1, t, v)
    end do
  end subroutine fill_1d
end module module_fill_rule
