! Fortran through the drop-in library: plain CALL SGEMM and CALL SGEMV, as
! in any Fortran program, computed by oclblas when linked against it,
!   gfortran sgemm.f90 -o sgemm -L$P/lib -loclblas_cblas -Wl,-rpath,$P/lib
! or when preloaded into the same program linked against the system BLAS,
!   gfortran sgemm.f90 -o sgemm-blas -lblas
!   LD_PRELOAD=$P/lib/liboclblas_cblas.so.0 ./sgemm-blas
! Both results are checked against a float64 product; the exit status says
! how it went.
program oclblas_fortran_example
    implicit none
    integer, parameter :: m = 120, n = 90, k = 150
    real :: a(m, k), b(k, n), c(m, n), x(k), y(m)
    real(8) :: s, mag, worst_c, worst_y
    integer :: i, j, p

    call random_number(a)
    call random_number(b)
    call random_number(x)
    a = a - 0.5
    b = b - 0.5
    c = 1.0
    y = 2.0
    call sgemm('N', 'N', m, n, k, 1.5, a, m, b, k, 0.5, c, m)      ! C = 1.5 A B + 0.5 C
    call sgemv('T', k, m, 1.0, transpose(a), k, x, 1, 0.0, y, 1)   ! y = (A^T)^T x

    worst_c = 0
    do j = 1, n
        do i = 1, m
            s = 0
            mag = 0
            do p = 1, k
                s = s + dble(a(i, p)) * dble(b(p, j))
                mag = mag + abs(dble(a(i, p)) * dble(b(p, j)))
            end do
            worst_c = max(worst_c, abs(c(i, j) - (1.5d0 * s + 0.5d0)) / &
                          (4 * (k + 2) * epsilon(1.0) * (1.5d0 * mag + 0.5d0) + tiny(1.0)))
        end do
    end do
    worst_y = 0
    do i = 1, m
        s = 0
        mag = 0
        do p = 1, k
            s = s + dble(a(i, p)) * dble(x(p))
            mag = mag + abs(dble(a(i, p)) * dble(x(p)))
        end do
        worst_y = max(worst_y, abs(y(i) - s) / (4 * (k + 2) * epsilon(1.0) * mag + tiny(1.0)))
    end do
    print '(a, f6.3, a, f6.3)', 'Fortran: SGEMM error/bound ', worst_c, ', SGEMV error/bound ', worst_y
    if (worst_c > 1 .or. worst_y > 1) stop 1
end program oclblas_fortran_example
