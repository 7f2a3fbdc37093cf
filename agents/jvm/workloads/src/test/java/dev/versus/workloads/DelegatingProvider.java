package dev.versus.workloads;

import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;

/**
 * A JCE provider as a plugin jar would bring one ("VersusTest"): it offers AES/GCM/NoPadding by
 * handing the work to SunJCE. Never installed; CipherWorkloadTest finds it through a class loader's
 * META-INF/services/java.security.Provider.
 */
public final class DelegatingProvider extends Provider {
  private static final long serialVersionUID = 1L;

  public DelegatingProvider() {
    super("VersusTest", "1.0", "AES/GCM through SunJCE, for tests");
    put("Cipher.AES/GCM/NoPadding", Spi.class.getName());
  }

  /** Every call goes to SunJCE's cipher. */
  public static final class Spi extends CipherSpi {
    private final Cipher delegate;

    public Spi() throws GeneralSecurityException {
      delegate = Cipher.getInstance("AES/GCM/NoPadding", "SunJCE");
    }

    @Override
    protected void engineSetMode(String mode) {}

    @Override
    protected void engineSetPadding(String padding) {}

    @Override
    protected int engineGetBlockSize() {
      return delegate.getBlockSize();
    }

    @Override
    protected int engineGetOutputSize(int inputLen) {
      return delegate.getOutputSize(inputLen);
    }

    @Override
    protected byte[] engineGetIV() {
      return delegate.getIV();
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
      return delegate.getParameters();
    }

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) throws java.security.InvalidKeyException {
      delegate.init(opmode, key, random);
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random) throws java.security.InvalidKeyException, java.security.InvalidAlgorithmParameterException {
      delegate.init(opmode, key, params, random);
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters params, SecureRandom random) throws java.security.InvalidKeyException, java.security.InvalidAlgorithmParameterException {
      delegate.init(opmode, key, params, random);
    }

    @Override
    protected byte[] engineUpdate(byte[] input, int offset, int len) {
      return delegate.update(input, offset, len);
    }

    @Override
    protected int engineUpdate(byte[] input, int offset, int len, byte[] output, int outputOffset) throws javax.crypto.ShortBufferException {
      return delegate.update(input, offset, len, output, outputOffset);
    }

    @Override
    protected byte[] engineDoFinal(byte[] input, int offset, int len) throws javax.crypto.IllegalBlockSizeException, javax.crypto.BadPaddingException {
      return delegate.doFinal(input, offset, len);
    }

    @Override
    protected int engineDoFinal(byte[] input, int offset, int len, byte[] output, int outputOffset)
        throws javax.crypto.ShortBufferException, javax.crypto.IllegalBlockSizeException, javax.crypto.BadPaddingException {
      return delegate.doFinal(input, offset, len, output, outputOffset);
    }

    @Override
    protected void engineUpdateAAD(byte[] src, int offset, int len) {
      delegate.updateAAD(src, offset, len);
    }
  }
}
