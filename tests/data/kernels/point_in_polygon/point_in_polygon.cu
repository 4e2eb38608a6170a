// Which of n points lie inside a polygon (crossing number: a point is inside when a ray from it
// crosses the edges an odd number of times). The polygon is a table in constant memory: its
// vertices and, for each edge, the slope dx/dy derived from them, which a variant may read
// instead of dividing (use_slope_table). The slopes are only right when they come from the
// same vertices: the spec fills all three tables with one generator (make_polygon.cpp).
//
// Parameters:
//   block_size_x     threads a block, one point each
//   use_slope_table  1: read edge k's slope from `slopes`; 0: divide, as the original does
// The table holds the slopes as the host divides them (IEEE single precision, correctly rounded,
// as the device's division is), so every configuration gives the same answers.
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef use_slope_table
#define use_slope_table 0
#endif

#define MAX_VERTICES 1024

__constant__ float vertex_x[MAX_VERTICES];
__constant__ float vertex_y[MAX_VERTICES];
__constant__ float slopes[MAX_VERTICES];  // edge k runs from vertex k - 1 (wrapping) to k

__global__ void point_in_polygon(int n, int vertices, const float* px, const float* py,
                                 int* inside) {
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i >= n) return;
    const float x = px[i];
    const float y = py[i];
    int crossings = 0;
    for (int k = 0, j = vertices - 1; k < vertices; j = k++) {
        const float xk = vertex_x[k], yk = vertex_y[k];
        const float xj = vertex_x[j], yj = vertex_y[j];
        if ((yk > y) != (yj > y)) {
#if use_slope_table
            const float slope = slopes[k];
#else
            const float slope = (xj - xk) / (yj - yk);
#endif
            if (x < xk + slope * (y - yk)) crossings ^= 1;
        }
    }
    inside[i] = crossings;
}
