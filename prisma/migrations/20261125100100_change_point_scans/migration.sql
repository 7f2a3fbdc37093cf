-- What the last change-point scan of each series analysed, so the next scan can search only the
-- tail (server/history/change-point-store.ts).

-- CreateTable
CREATE TABLE "ChangePointScan" (
    "metricId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "commits" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChangePointScan_pkey" PRIMARY KEY ("metricId","variantId","branch")
);

-- CreateIndex
CREATE INDEX "ChangePointScan_variantId_idx" ON "ChangePointScan"("variantId");

-- CreateIndex
CREATE INDEX "ChangePoint_variantId_idx" ON "ChangePoint"("variantId");

-- AddForeignKey
ALTER TABLE "ChangePointScan" ADD CONSTRAINT "ChangePointScan_metricId_fkey" FOREIGN KEY ("metricId") REFERENCES "Metric"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangePointScan" ADD CONSTRAINT "ChangePointScan_variantId_fkey" FOREIGN KEY ("variantId") REFERENCES "Variant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
