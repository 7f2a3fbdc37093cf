-- AlterTable
ALTER TABLE "RunMetricResult" ADD COLUMN     "histogramScale" DOUBLE PRECISION;
