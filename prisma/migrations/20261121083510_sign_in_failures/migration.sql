-- CreateTable
CREATE TABLE "SignInFailure" (
    "email" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "firstAt" TIMESTAMP(3) NOT NULL,
    "lockedUntil" TIMESTAMP(3),

    CONSTRAINT "SignInFailure_pkey" PRIMARY KEY ("email")
);
